/**
 * The route an auxiliary task (SPEC §6.2) runs on. A user's pin (SPEC §6.4 step 1) wins as a whole
 * route; otherwise the slot follows the main model. Bases and plugin slots arrive with the
 * slot service; callers already go through this function, so they pick that up unchanged.
 */
import type { AuxiliaryTaskConfig, Settings } from "../config/config-schema.js";
import { mainRoute, routeFor, type Route } from "../llm/route.js";

export type AuxiliaryTask = "vision" | "compression" | "title_generation" | "background_review";

const followsMain = (provider: string | undefined): boolean =>
  !provider || provider === "auto" || provider === "main";

/** A block with a non-auto provider, a model or a base_url is a pin (SPEC §6.4). */
export function isPinned(block: AuxiliaryTaskConfig | undefined): boolean {
  return !!block && (!followsMain(block.provider) || !!block.model || !!block.base_url);
}

/** Read on every call, never cached: a config edit applies to the next request. */
export function resolveAuxiliaryRoute(task: AuxiliaryTask, settings: Settings): Route {
  const block = settings.auxiliary[task];
  if (!block || !isPinned(block)) {
    const route = mainRoute(settings);
    return block?.timeout ? { ...route, timeoutSeconds: block.timeout } : route;
  }
  // The pin is the whole route: provider (or the main one), model, endpoint, key, effort.
  const providerId = followsMain(block.provider) ? settings.model.provider : block.provider!;
  const model = block.model || (providerId === settings.model.provider ? settings.model.model : "");
  const route = routeFor(settings, providerId, model || settings.model.model);
  return {
    ...route,
    ...(block.base_url ? { baseURL: block.base_url } : {}),
    ...(block.timeout ? { timeoutSeconds: block.timeout } : {}),
    ...(block.reasoning_effort ? { reasoningEffort: block.reasoning_effort } : {}),
    ...(block.extra_body ? { extraBody: block.extra_body } : {}),
  };
}
