/**
 * A route: which provider endpoint and model a request goes to, with the settings it carries.
 * Resolved from settings at each use (never cached across config edits).
 */
import type { Settings } from "../config/config-schema.js";

export interface Route {
  providerId: string;
  providerName: string;
  baseURL: string;
  model: string;
  /** Where the key comes from: the provider's `key_env` variable, else the keychain. */
  keyEnv: string | null;
  /** A stored auth profile (§4); absent = the provider's default key. */
  profile?: string;
  timeoutSeconds?: number;
  reasoningEffort?: string;
  extraBody?: Record<string, unknown>;
}

export class NoModelConfiguredError extends Error {
  override readonly name = "NoModelConfiguredError";
  constructor() {
    super("No main model is set: pick a provider and a model in Settings → Models → Main.");
  }
}

export class UnknownProviderError extends Error {
  override readonly name = "UnknownProviderError";
  constructor(readonly providerId: string) {
    super(`The provider "${providerId}" is not configured; add it in Settings → Providers or pick another.`);
  }
}

/** Finds a configured provider id case-insensitively, returning its original spelling. */
export function findProviderId(settings: Settings, id: string): string | undefined {
  // Own keys only: "constructor" or "toString" must not find Object.prototype's members.
  if (Object.hasOwn(settings.providers, id)) return id;
  const lower = id.toLowerCase();
  return Object.keys(settings.providers).find((p) => p.toLowerCase() === lower);
}

export function routeFor(settings: Settings, providerId: string, model: string): Route {
  const id = findProviderId(settings, providerId);
  const provider = id ? settings.providers[id] : undefined;
  if (!id || !provider) throw new UnknownProviderError(providerId);
  return {
    providerId: id,
    providerName: provider.name,
    baseURL: provider.base_url,
    model,
    keyEnv: provider.key_env ?? null,
  };
}

export function mainRoute(settings: Settings): Route {
  const { provider, model } = settings.model;
  if (!provider || !model) throw new NoModelConfiguredError();
  return routeFor(settings, provider, model);
}

/** `fallback_providers` in order; entries naming a provider that no longer exists are skipped. */
export function fallbackRoutes(settings: Settings): Route[] {
  return settings.fallback_providers.flatMap((entry) => {
    try {
      return [routeFor(settings, entry.provider, entry.model)];
    } catch {
      return [];
    }
  });
}
