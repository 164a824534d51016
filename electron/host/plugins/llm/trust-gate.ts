/**
 * The fail-closed trust gate of `ctx.llm` (docs/contract.md §6.6): route-picking arguments (`provider`,
 * `model`, `agentId`, `profile`, `task`) are refused unless `plugins.entries.<id>.llm` grants
 * them. Each grant is independent; the policy is read from the raw config document on every call,
 * because an absent allowlist (any value) and an empty one (none) mean different things.
 */
import type { PluginLlmPolicy, Settings } from "../../config/config-schema.js";
import { findProviderId } from "../../llm/route.js";
import { isBuiltinTask } from "../../models/auxiliary-tasks.js";
import { PluginLlmInputError, PluginLlmTrustError } from "./llm-errors.js";

export const MAIN_AGENT_ID = "main";
export const DEFAULT_PROFILE = "default";

export interface RouteOverrides {
  provider?: unknown;
  model?: unknown;
  agentId?: unknown;
  profile?: unknown;
  task?: unknown;
}

/** What the gate let through; absent fields mean "the main route's". */
export interface GateDecision {
  /** The configured provider id (its configured spelling) when overridden. */
  providerId?: string;
  /** Exactly as the plugin spelled it. */
  model?: string;
  profile?: string;
  agentId: string;
  /** null = the main model ("auto" or absent). */
  task: string | null;
}

/** Whether a plugin registered a slot itself (the slot registry answers it). */
export type OwnSlotLookup = (pluginId: string, task: string) => boolean;
export const noOwnSlots: OwnSlotLookup = () => false;

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw new PluginLlmInputError(`ctx.llm: "${name}" must be a string`);
  return value;
}

/** Absent list: any value; empty list: none; `"*"`: any; otherwise a case-insensitive match. */
export function allowlistAllows(list: readonly string[] | undefined, value: string): boolean {
  if (list === undefined) return true;
  const lower = value.toLowerCase();
  return list.some((item) => item === "*" || item.toLowerCase() === lower);
}

/** Absent stays absent (any value); anything present that is not a list of strings allows none. */
function readAllowlist(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

const keyOf = (pluginId: string, field: keyof PluginLlmPolicy) => `plugins.entries.${pluginId}.llm.${field}`;

/**
 * Every refusal comes first (each override against its own grant, in a fixed order), then what was
 * granted is resolved against the settings, so an ungranted override is always reported as a trust
 * error even when another argument also names something unknown.
 */
export function checkLlmTrust(
  pluginId: string,
  overrides: RouteOverrides,
  policy: Partial<PluginLlmPolicy> | undefined,
  settings: Settings,
  ownsSlot: OwnSlotLookup = noOwnSlots,
): GateDecision {
  const provider = optionalString(overrides.provider, "provider");
  const model = optionalString(overrides.model, "model");
  const agentIdArg = optionalString(overrides.agentId, "agentId");
  const profileArg = optionalString(overrides.profile, "profile");
  const taskArg = optionalString(overrides.task, "task");
  const agentId = agentIdArg !== MAIN_AGENT_ID ? agentIdArg : undefined;
  const profile = profileArg !== DEFAULT_PROFILE ? profileArg : undefined;
  const task = taskArg !== "auto" ? taskArg : undefined;
  const granted = (field: keyof PluginLlmPolicy) => policy?.[field] === true;
  const refuse = (what: string, grant: keyof PluginLlmPolicy): never => {
    throw new PluginLlmTrustError(
      `Plugin '${pluginId}' ${what}: set ${keyOf(pluginId, grant)}: true to allow it.`,
    );
  };
  /** A route override needs its grant, then a place on its allowlist. */
  const checkRouteOverride = (
    what: "provider" | "model",
    value: string,
    grant: "allow_provider_override" | "allow_model_override",
    allowlist: "allowed_providers" | "allowed_models",
  ) => {
    if (!granted(grant)) refuse(`cannot override the ${what}`, grant);
    if (!allowlistAllows(readAllowlist(policy?.[allowlist]), value)) {
      const label = what === "provider" ? "Provider" : "Model";
      throw new PluginLlmTrustError(
        `${label} '${value}' is not in ${keyOf(pluginId, allowlist)}; add it there (or "*") to allow it.`,
      );
    }
  };

  if (task !== undefined) {
    if (isBuiltinTask(task)) {
      if (!granted("allow_task_override"))
        refuse(`cannot use the built-in task '${task}'`, "allow_task_override");
    } else if (!ownsSlot(pluginId, task)) {
      throw new PluginLlmTrustError(
        `Plugin '${pluginId}' cannot use the task '${task}': it is not an auxiliary task this plugin registered (register it with ctx.registerAuxiliaryTask, or leave task out to use the main model).`,
      );
    }
  }
  if (provider !== undefined)
    checkRouteOverride("provider", provider, "allow_provider_override", "allowed_providers");
  if (model !== undefined) checkRouteOverride("model", model, "allow_model_override", "allowed_models");
  if (agentId !== undefined && !granted("allow_agent_id_override")) {
    refuse(`cannot use the non-default agent id '${agentId}'`, "allow_agent_id_override");
  }
  if (profile !== undefined && !granted("allow_profile_override")) {
    refuse("cannot override the auth profile", "allow_profile_override");
  }

  const providerId = provider === undefined ? undefined : findProviderId(settings, provider);
  if (provider !== undefined && providerId === undefined) {
    throw new PluginLlmInputError(
      `ctx.llm: unknown provider '${provider}'; use a provider id from Settings → Providers.`,
    );
  }
  if (agentId !== undefined) {
    throw new PluginLlmInputError(`ctx.llm: unknown agent id '${agentId}'; the app has one agent, "main".`);
  }
  if (profile !== undefined) {
    const routeProvider = providerId ?? findProviderId(settings, settings.model.provider);
    const profiles = routeProvider ? (settings.providers[routeProvider]?.profiles ?? []) : [];
    if (!profiles.includes(profile)) {
      throw new PluginLlmInputError(
        `ctx.llm: unknown auth profile '${profile}' for provider '${routeProvider ?? "(none)"}'; add it in Settings → Providers.`,
      );
    }
  }

  return {
    ...(providerId !== undefined && { providerId }),
    ...(model !== undefined && { model }),
    ...(profile !== undefined && { profile }),
    agentId: MAIN_AGENT_ID,
    task: task ?? null,
  };
}
