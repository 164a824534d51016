/**
 * The fail-closed trust gate of `ctx.llm` (SPEC §6.6): route-picking arguments (`provider`,
 * `model`, `agentId`, `profile`, `task`) are refused unless `plugins.entries.<id>.llm` grants
 * them. Each grant is independent; the policy is read from the raw config document on every call,
 * because an absent allowlist (any value) and an empty one (none) mean different things.
 */
import type { PluginLlmPolicy, Settings } from "../config/config-schema.js";
import { findProviderId } from "../llm/route.js";
import { PluginLlmInputError, PluginLlmTrustError } from "./llm-errors.js";

export const MAIN_AGENT_ID = "main";
export const DEFAULT_PROFILE = "default";

/** Built-in auxiliary slots the app runs (SPEC §6.2). */
export const BUILTIN_TASKS = ["vision", "compression", "title_generation", "background_review"] as const;

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

/** Slots a plugin registered itself (auxiliary slots arrive with their own issue). */
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

const keyOf = (pluginId: string, field: keyof PluginLlmPolicy) => `plugins.entries.${pluginId}.llm.${field}`;

export function checkLlmTrust(
  pluginId: string,
  overrides: RouteOverrides,
  policy: Partial<PluginLlmPolicy> | undefined,
  settings: Settings,
  ownsSlot: OwnSlotLookup = noOwnSlots,
): GateDecision {
  const provider = optionalString(overrides.provider, "provider");
  const model = optionalString(overrides.model, "model");
  const agentId = optionalString(overrides.agentId, "agentId");
  const profile = optionalString(overrides.profile, "profile");
  const task = optionalString(overrides.task, "task");
  const granted = (field: keyof PluginLlmPolicy) => policy?.[field] === true;
  const list = (field: "allowed_providers" | "allowed_models") =>
    Array.isArray(policy?.[field]) ? (policy[field] as string[]) : undefined;

  let resolvedTask: string | null = null;
  if (task !== undefined && task !== "auto") {
    if ((BUILTIN_TASKS as readonly string[]).includes(task)) {
      if (!granted("allow_task_override")) {
        throw new PluginLlmTrustError(
          `Plugin '${pluginId}' cannot use the built-in task '${task}': set ${keyOf(pluginId, "allow_task_override")}: true to allow it.`,
        );
      }
    } else if (!ownsSlot(pluginId, task)) {
      throw new PluginLlmTrustError(
        `Plugin '${pluginId}' cannot use the task '${task}': it is not an auxiliary task this plugin registered (register it with ctx.registerAuxiliaryTask, or leave task out to use the main model).`,
      );
    }
    resolvedTask = task;
  }

  let providerId: string | undefined;
  if (provider !== undefined) {
    if (!granted("allow_provider_override")) {
      throw new PluginLlmTrustError(
        `Plugin '${pluginId}' cannot override the provider: set ${keyOf(pluginId, "allow_provider_override")}: true to allow it.`,
      );
    }
    if (!allowlistAllows(list("allowed_providers"), provider)) {
      throw new PluginLlmTrustError(
        `Provider '${provider}' is not in ${keyOf(pluginId, "allowed_providers")}; add it there (or "*") to allow it.`,
      );
    }
    providerId = findProviderId(settings, provider);
    if (providerId === undefined) {
      throw new PluginLlmInputError(
        `ctx.llm: unknown provider '${provider}'; use a provider id from Settings → Providers.`,
      );
    }
  }

  if (model !== undefined) {
    if (!granted("allow_model_override")) {
      throw new PluginLlmTrustError(
        `Plugin '${pluginId}' cannot override the model: set ${keyOf(pluginId, "allow_model_override")}: true to allow it.`,
      );
    }
    if (!allowlistAllows(list("allowed_models"), model)) {
      throw new PluginLlmTrustError(
        `Model '${model}' is not in ${keyOf(pluginId, "allowed_models")}; add it there (or "*") to allow it.`,
      );
    }
  }

  if (agentId !== undefined && agentId !== MAIN_AGENT_ID) {
    if (!granted("allow_agent_id_override")) {
      throw new PluginLlmTrustError(
        `Plugin '${pluginId}' cannot use the non-default agent id '${agentId}': set ${keyOf(pluginId, "allow_agent_id_override")}: true to allow it.`,
      );
    }
    throw new PluginLlmInputError(`ctx.llm: unknown agent id '${agentId}'; the app has one agent, "main".`);
  }

  let resolvedProfile: string | undefined;
  if (profile !== undefined && profile !== DEFAULT_PROFILE) {
    if (!granted("allow_profile_override")) {
      throw new PluginLlmTrustError(
        `Plugin '${pluginId}' cannot override the auth profile: set ${keyOf(pluginId, "allow_profile_override")}: true to allow it.`,
      );
    }
    const routeProvider = providerId ?? findProviderId(settings, settings.model.provider);
    const profiles = routeProvider ? (settings.providers[routeProvider]?.profiles ?? []) : [];
    if (!profiles.includes(profile)) {
      throw new PluginLlmInputError(
        `ctx.llm: unknown auth profile '${profile}' for provider '${routeProvider ?? "(none)"}'; add it in Settings → Providers.`,
      );
    }
    resolvedProfile = profile;
  }

  return {
    ...(providerId !== undefined && { providerId }),
    ...(model !== undefined && { model }),
    ...(resolvedProfile !== undefined && { profile: resolvedProfile }),
    agentId: MAIN_AGENT_ID,
    task: resolvedTask,
  };
}
