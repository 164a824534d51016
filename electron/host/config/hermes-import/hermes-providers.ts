/**
 * Hermes' providers as the app's (docs/contract.md §3.1): `custom_providers` (a list of `{name,
 * base_url, key_env?, api_key?, models?}`, referred to as `custom:<name>`), the newer `providers`
 * mapping, and the built-in providers Hermes knows by id. A reference (`model.provider`, a
 * fallback's or a slot's `provider`) resolves to an app provider id, adding that provider to the
 * import the first time; a reference the app can't call resolves to null with the reason.
 */
import type { ModelSettings, ProviderConfig } from "../config-schema.js";
import { providerPresets } from "../../rpc/shared-rules/provider-presets.js";
import { isValidProviderId, slugifyProviderId } from "../../rpc/shared-rules/provider-id.js";
import { envReference, isMap, optionalMap, optionalString, type HermesMap } from "./hermes-values.js";

/** Hermes built-ins that speak the OpenAI API, beyond the app's own presets. */
const extraBuiltIns: Record<string, { name: string; base_url: string; key_env: string }> = {
  deepseek: { name: "DeepSeek", base_url: "https://api.deepseek.com/v1", key_env: "DEEPSEEK_API_KEY" },
};

export interface ImportedProvider {
  id: string;
  config: ProviderConfig;
  /** The Hermes key it came from, for messages. */
  source: string;
  /** `.env` variables that may hold its key, most specific first. */
  keyEnvs: string[];
}

/** What a Hermes provider block may hold that the import reads (`id` is the `providers` mapping's key). */
const providerFields = ["name", "id", "base_url", "key_env", "api_key", "models"];

export type Resolution = { id: string } | { id: null; reason: string };

export class HermesProviders {
  /** Providers the import adds or updates, by app id. */
  readonly used = new Map<string, ImportedProvider>();
  /** Hermes' own definitions, by the names references use. */
  private readonly defined = new Map<string, ImportedProvider | { problem: string }>();
  readonly skipped: { key: string; reason: string }[] = [];

  constructor(config: HermesMap) {
    this.readCustomProviders(config["custom_providers"]);
    this.readProvidersMap(config["providers"]);
  }

  private readCustomProviders(raw: unknown): void {
    if (raw === undefined || raw === null) return;
    // Hermes once wrote `custom_providers` as a mapping; it reads both.
    const entries: [string, unknown][] = Array.isArray(raw)
      ? raw.map((entry, index) => [`custom_providers[${index}]`, entry])
      : Object.entries(optionalMap(raw, "custom_providers")!).map(([name, entry]) => [
          `custom_providers.${name}`,
          isMap(entry) ? { name, ...entry } : entry,
        ]);
    for (const [key, entry] of entries) {
      const block = optionalMap(entry, key);
      if (!block) continue;
      const rawName = optionalString(block["name"], `${key}.name`)?.trim() ?? "";
      const name = rawName.replace(/^custom:/, "");
      this.define([name, rawName, `custom:${name}`], key, name, block);
    }
  }

  private readProvidersMap(raw: unknown): void {
    const map = optionalMap(raw, "providers");
    if (!map) return;
    for (const [id, entry] of Object.entries(map)) {
      const key = `providers.${id}`;
      const block = optionalMap(entry, key) ?? {};
      const name = optionalString(block["name"], `${key}.name`)?.trim() || builtIn(id)?.name || id;
      this.define([id, `custom:${id}`], key, name, { ...block, name, id });
    }
  }

  private define(names: string[], key: string, name: string, block: HermesMap): void {
    const outcome = this.read(key, name, block);
    if ("problem" in outcome) this.skipped.push({ key, reason: `Not imported: ${outcome.problem}.` });
    for (const ref of names) if (ref && !this.defined.has(ref)) this.defined.set(ref, outcome);
  }

  /** One Hermes provider block as the app's provider, or why it can't be one. */
  private read(key: string, name: string, block: HermesMap): ImportedProvider | { problem: string } {
    const explicitId = typeof block["id"] === "string" ? block["id"] : null;
    const id = explicitId && isValidProviderId(explicitId) ? explicitId : slugifyProviderId(name);
    if (!id) return { problem: "it needs a name with a letter or digit to make a provider ID from" };
    const preset = builtIn(id);
    const baseUrl = optionalString(block["base_url"], `${key}.base_url`)?.trim() || preset?.base_url || "";
    if (!baseUrl) return { problem: "it has no base_url" };

    const keyEnv = optionalString(block["key_env"], `${key}.key_env`)?.trim();
    const apiKey = optionalString(block["api_key"], `${key}.api_key`);
    const fromReference = apiKey ? envReference(apiKey) : null;
    if (apiKey && !fromReference) {
      this.skipped.push({
        key: `${key}.api_key`,
        reason:
          "A key written into config.yaml is not copied; keys live in the keychain. Put it in Hermes' .env " +
          "(and name it in key_env), or add it in Settings → Providers.",
      });
    }
    for (const field of Object.keys(block)) {
      if (!providerFields.includes(field)) {
        this.skipped.push({ key: `${key}.${field}`, reason: "Hermes Desktop has no such provider setting." });
      }
    }
    const config: ProviderConfig = { name: name || id, base_url: baseUrl.replace(/\/+$/, "") };
    const envName = keyEnv || preset?.key_env;
    if (envName) config.key_env = envName;
    const models = contextWindows(block["models"]);
    if (models) config.models = models;
    const keyEnvs = [keyEnv, fromReference, preset?.key_env].filter((e): e is string => !!e);
    return { id, config, source: key, keyEnvs: [...new Set(keyEnvs)] };
  }

  /** The app provider id for a Hermes reference; the provider joins the import on first use. */
  resolve(reference: string, context: { base_url?: string } = {}): Resolution {
    const ref = reference.trim();
    const defined = this.defined.get(ref) ?? this.defined.get(ref.replace(/^custom:/, ""));
    if (defined && "problem" in defined)
      return { id: null, reason: `Provider "${ref}" can't be imported: ${defined.problem}.` };
    if (defined) return this.use(defined);
    if (ref === "custom" && context.base_url) {
      return this.use({
        id: "custom",
        config: { name: "Custom endpoint", base_url: context.base_url.replace(/\/+$/, "") },
        source: "model.base_url",
        keyEnvs: [],
      });
    }
    const preset = builtIn(ref);
    if (preset) {
      const config: ProviderConfig = { name: preset.name, base_url: preset.base_url };
      if (preset.key_env) config.key_env = preset.key_env;
      return this.use({ id: ref, config, source: ref, keyEnvs: preset.key_env ? [preset.key_env] : [] });
    }
    return {
      id: null,
      reason: `"${ref}" is not an OpenAI-compatible provider Hermes Desktop can call; add it in Settings → Providers with its base URL.`,
    };
  }

  private use(provider: ImportedProvider): Resolution {
    if (!this.used.has(provider.id)) this.used.set(provider.id, provider);
    return { id: provider.id };
  }

  /** Hermes' own definitions not referred to anywhere: they are imported too (the user defined them). */
  importUnreferenced(): void {
    for (const outcome of new Set(this.defined.values())) {
      if ("problem" in outcome) continue;
      this.use(outcome);
    }
  }
}

function builtIn(id: string): { name: string; base_url: string; key_env: string | null } | undefined {
  const preset = providerPresets.find((p) => p.id === id);
  return preset ?? extraBuiltIns[id];
}

/** `models: {id: {context_length}}` → the app's per-model context windows; a plain list says nothing to keep. */
function contextWindows(raw: unknown): Record<string, ModelSettings> | undefined {
  if (!isMap(raw)) return undefined;
  const models: Record<string, ModelSettings> = {};
  for (const [id, entry] of Object.entries(raw)) {
    const length = isMap(entry) ? entry["context_length"] : undefined;
    if (typeof length === "number" && Number.isInteger(length) && length >= 256) {
      models[id] = { context_window: length };
    }
  }
  return Object.keys(models).length > 0 ? models : undefined;
}
