/**
 * The route an auxiliary task (SPEC §6.2) runs on. Every built-in slot follows the main model
 * here; pins, bases and plugin slots (SPEC §6.4) are resolved by the slot service once it exists,
 * and callers already go through this function so they pick that up without changes.
 */
import type { Settings } from "../config/config-schema.js";
import { mainRoute, type Route } from "../llm/route.js";

export type AuxiliaryTask = "vision" | "compression" | "title_generation" | "background_review";

/** Read on every call, never cached: a config edit applies to the next request. */
export function resolveAuxiliaryRoute(_task: AuxiliaryTask, settings: Settings): Route {
  return mainRoute(settings);
}
