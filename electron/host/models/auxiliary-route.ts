/**
 * The route an auxiliary slot runs on (docs/contract.md §6.4), worked out from the settings and the slot
 * registry on every call — nothing is cached, so a config edit applies to the next request.
 *
 * 1. The user's pin wins as a whole route. 2. Else a slot with a base takes the base's route;
 * a route that comes from a built-in slot carries over only when the slot's plugin holds
 * `allow_task_override`. 3. Else the plugin's defaults route. 4. Else the main model.
 * Non-route settings (timeout, reasoning_effort, extra_body): base, then defaults, then the
 * user's block, the later winning. A base whose own route is the main model passes the slot on
 * to step 3, so a plugin's defaults are not shadowed by a base nobody pinned.
 */
import type { AuxiliaryTaskConfig, Settings } from "../config/config-schema.js";
import { findProviderId, mainRoute, routeFor, type Route } from "../llm/route.js";
import { isBuiltinTask, type AuxiliaryTaskRegistry, type SlotDefinition } from "./auxiliary-tasks.js";

export const DEFAULT_AUX_TIMEOUT_S = 30;

export class UnknownAuxiliaryTaskError extends Error {
  override readonly name = "UnknownAuxiliaryTaskError";
  constructor(readonly task: string) {
    super(`unknown auxiliary task "${task}"; see Settings → Models → Auxiliary for the tasks there are`);
  }
}

export const followsMain = (provider: string | undefined): boolean =>
  !provider || provider === "auto" || provider === "main";

/** A block with a non-auto provider, a model or a base_url names a route (docs/contract.md §6.4). */
export function isPinned(block: AuxiliaryTaskConfig | undefined): boolean {
  return !!block && (!followsMain(block.provider) || !!block.model || !!block.base_url);
}

/** A route in config terms: what the page shows and what `routeOf` turns into a request route. */
export interface RouteChoice {
  /** A provider id as written (it may no longer exist: then the slot is broken). */
  provider: string;
  model: string;
  /** "" = the provider's own base URL. */
  base_url: string;
  reasoning_effort?: string;
  extra_body?: Record<string, unknown>;
}

export type RouteSource = "pin" | "inherited" | "defaults" | "main";

export interface SlotResolution {
  task: string;
  source: RouteSource;
  choice: RouteChoice;
  /** The slots the route passes through, from this one to the one whose pin or defaults gave it. */
  chain: string[];
  timeoutSeconds: number;
  reasoningEffort?: string;
  extraBody?: Record<string, unknown>;
  /** Why the route is not usable (a provider that no longer exists), with what to do. */
  broken: string | null;
  /** Set when a cycle in the bases was cut short (never a hang). */
  notice: string | null;
}

interface NonRoute {
  timeout?: number;
  reasoning_effort?: string;
  extra_body?: Record<string, unknown>;
}

const blockOf = (settings: Settings, task: string): AuxiliaryTaskConfig | undefined => {
  const block = settings.auxiliary[task];
  return block && typeof block === "object" && !Array.isArray(block) ? block : undefined;
};

/** A block or plugin defaults as a route: auto/main with a model means the main provider. */
function choiceFrom(settings: Settings, block: AuxiliaryTaskConfig): RouteChoice {
  const provider = followsMain(block.provider) ? settings.model.provider : block.provider!;
  const sameAsMain = provider.toLowerCase() === settings.model.provider.toLowerCase();
  return {
    provider,
    model: block.model || (sameAsMain ? settings.model.model : "") || settings.model.model,
    base_url: block.base_url ?? "",
    ...(block.reasoning_effort ? { reasoning_effort: block.reasoning_effort } : {}),
    ...(block.extra_body ? { extra_body: block.extra_body } : {}),
  };
}

const mainChoice = (settings: Settings): RouteChoice => ({
  provider: settings.model.provider,
  model: settings.model.model,
  base_url: "",
});

function brokenReason(settings: Settings, choice: RouteChoice, source: RouteSource): string | null {
  if (!choice.provider) return source === "main" ? null : "No provider is set for this route.";
  if (findProviderId(settings, choice.provider)) return null;
  return `The provider "${choice.provider}" no longer exists: add it again in Settings → Providers, or reset this task.`;
}

const pickNonRoute = (from: NonRoute | undefined): NonRoute => ({
  ...(from?.timeout !== undefined && { timeout: from.timeout }),
  ...(from?.reasoning_effort && { reasoning_effort: from.reasoning_effort }),
  ...(from?.extra_body && { extra_body: from.extra_body }),
});

/** Whether the slot's plugin may take a route that comes from a built-in slot. */
const mayUseBuiltinRoute = (settings: Settings, slot: SlotDefinition): boolean =>
  slot.kind === "plugin" &&
  (settings.plugins.entries[slot.pluginId]?.llm?.allow_task_override === true ||
    settings.plugins.entries[slot.pluginId]?.granted_capabilities?.includes("llm.task_override") === true);

interface Resolved {
  source: RouteSource;
  choice: RouteChoice;
  chain: string[];
  nonRoute: NonRoute;
  notice: string | null;
}

function resolveInner(
  task: string,
  settings: Settings,
  registry: AuxiliaryTaskRegistry,
  seen: readonly string[],
): Resolved {
  const slot = registry.get(task);
  if (!slot) throw new UnknownAuxiliaryTaskError(task);
  const block = blockOf(settings, task);
  const defaults = slot.kind === "plugin" ? slot.defaults : {};
  const base = slot.kind === "plugin" ? slot.inheritFrom : null;

  let inherited: Resolved | null = null;
  let notice: string | null = null;
  if (base !== null) {
    if (seen.includes(base) || base === task) {
      notice = `Auxiliary task "${task}" inherits in a cycle (${[...seen, task, base].join(" → ")}); it runs without its base.`;
    } else {
      inherited = resolveInner(base, settings, registry, [...seen, task]);
      notice = inherited.notice;
    }
  }
  // Non-route settings: base, then plugin defaults, then the user's block (later wins).
  const nonRoute = { ...inherited?.nonRoute, ...pickNonRoute(defaults), ...pickNonRoute(block) };

  if (isPinned(block)) {
    return { source: "pin", choice: choiceFrom(settings, block!), chain: [task], nonRoute, notice };
  }
  if (inherited && inherited.source !== "main") {
    const routeFrom = inherited.chain[inherited.chain.length - 1]!;
    if (!isBuiltinTask(routeFrom) || mayUseBuiltinRoute(settings, slot)) {
      return { ...inherited, source: "inherited", chain: [task, ...inherited.chain], nonRoute, notice };
    }
  }
  if (isPinned(defaults)) {
    return { source: "defaults", choice: choiceFrom(settings, defaults), chain: [task], nonRoute, notice };
  }
  return { source: "main", choice: mainChoice(settings), chain: [task], nonRoute, notice };
}

/** docs/contract.md §6.4 for one slot. Throws UnknownAuxiliaryTaskError for a key no registry entry has. */
export function resolveSlot(
  task: string,
  settings: Settings,
  registry: AuxiliaryTaskRegistry,
): SlotResolution {
  const resolved = resolveInner(task, settings, registry, []);
  const { nonRoute, choice, source } = resolved;
  // A pin is a whole route: its effort and extra body are the block's own.
  const reasoningEffort = source === "pin" ? choice.reasoning_effort : nonRoute.reasoning_effort;
  const extraBody = source === "pin" ? choice.extra_body : nonRoute.extra_body;
  return {
    task,
    source,
    choice,
    chain: resolved.chain,
    timeoutSeconds: nonRoute.timeout ?? DEFAULT_AUX_TIMEOUT_S,
    ...(reasoningEffort ? { reasoningEffort } : {}),
    ...(extraBody ? { extraBody } : {}),
    broken: brokenReason(settings, choice, source),
    notice: resolved.notice,
  };
}

/**
 * Why "Follow <Base>" can't give this slot its base's route (docs/contract.md §6.4 step 2): the base is, or
 * inherits through, a built-in slot and the plugin does not hold `llm.task_override`. Null when it
 * can (or the slot has no base). Following anyway would only reset the slot, so the page says why.
 */
export function followBaseBlocked(
  task: string,
  settings: Settings,
  registry: AuxiliaryTaskRegistry,
): string | null {
  const slot = registry.get(task);
  if (!slot || slot.kind !== "plugin" || slot.inheritFrom === null) return null;
  const builtin = registry.chainOf(slot.inheritFrom).find(isBuiltinTask);
  if (builtin === undefined || mayUseBuiltinRoute(settings, slot)) return null;
  const label = (key: string) => registry.get(key)?.label ?? key;
  const fallback = isPinned(slot.defaults) ? "its plugin's default route" : "the main model";
  return (
    `${label(slot.inheritFrom)} is a built-in task's route, and plugin "${slot.pluginId}" does not hold the ` +
    `llm.task_override capability (grant it in Settings → Plugins). Reset runs this task on ${fallback}.`
  );
}

/** The request route of a resolution; throws the clear route errors when it can't be called. */
export function routeOf(settings: Settings, resolution: SlotResolution): Route {
  const { choice } = resolution;
  const route =
    resolution.source === "main" ? mainRoute(settings) : routeFor(settings, choice.provider, choice.model);
  return {
    ...route,
    ...(choice.base_url ? { baseURL: choice.base_url } : {}),
    timeoutSeconds: resolution.timeoutSeconds,
    ...(resolution.reasoningEffort ? { reasoningEffort: resolution.reasoningEffort } : {}),
    ...(resolution.extraBody ? { extraBody: resolution.extraBody } : {}),
  };
}

/** Resolution and request route in one step, for callers that only send. */
export function resolveAuxiliaryRoute(
  task: string,
  settings: Settings,
  registry: AuxiliaryTaskRegistry,
): Route {
  return routeOf(settings, resolveSlot(task, settings, registry));
}
