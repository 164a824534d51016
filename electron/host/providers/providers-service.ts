/**
 * Providers the user added (docs/contract.md §4, §6.1): list with key state, save (key to the vault first,
 * all or nothing), remove, and "Test connection" through the provider's `/models`.
 */
import OpenAI from "openai";
import type { SettingsStore } from "../config/settings-store.js";
import type { ProviderConfig } from "../config/config-schema.js";
import { createProviderClient } from "../llm/provider-client.js";
import { describeProviderError } from "../llm/provider-errors.js";
import { missingKeyExplanation, requestKey } from "../llm/request-key.js";
import { ProviderAnswerError, ProviderNotFoundError } from "../models/model-errors.js";
import type { ProvidersSaveParams, ProviderView } from "../rpc/methods/providers.js";
import { KeyNotSavedError, KeychainUnavailableError } from "../secrets/errors.js";
import { keychainNotice } from "../secrets/keychain-status.js";
import type { Vault } from "../secrets/vault.js";
import type { ModelInfoCache } from "../models/model-capabilities.js";
import { checkProviderFields } from "./provider-fields.js";

const modelsTimeoutMs = 15_000;

export class ProvidersService {
  constructor(
    private readonly settings: SettingsStore,
    private readonly vault: Vault,
    /** Learns context windows and vision from the lists that say so (docs/contract.md §9.1). */
    private readonly modelInfo?: ModelInfoCache,
  ) {}

  private config(id: string): ProviderConfig {
    const providers = this.settings.get().providers;
    // Own keys only: "constructor" must not find Object.prototype's member.
    const provider = Object.hasOwn(providers, id) ? providers[id] : undefined;
    if (!provider)
      throw new ProviderNotFoundError(`No provider "${id}"; add it in Settings → Providers first.`);
    return provider;
  }

  async view(id: string, provider: ProviderConfig): Promise<ProviderView> {
    const keyHint = await this.vault.keyHint(id, provider.key_env ?? null).catch(() => null);
    return {
      id,
      name: provider.name,
      base_url: provider.base_url,
      key_env: provider.key_env ?? null,
      hasKey: keyHint !== null,
      keyHint,
    };
  }

  async list(): Promise<{ providers: ProviderView[] }> {
    const entries = Object.entries(this.settings.get().providers);
    return { providers: await Promise.all(entries.map(([id, p]) => this.view(id, p))) };
  }

  async save(params: ProvidersSaveParams): Promise<{ provider: ProviderView }> {
    const providers = this.settings.get().providers;
    const fields = checkProviderFields(params, Object.keys(providers));
    const id = fields.id;
    const next: ProviderConfig = {
      ...(Object.hasOwn(providers, id) ? providers[id] : {}),
      name: fields.name,
      base_url: fields.base_url,
    };
    if (fields.key_env) next.key_env = fields.key_env;
    else delete next.key_env;

    const apiKey = params.apiKey?.trim();
    // The key goes first: when the keychain refuses it, nothing at all is written.
    const previousKey = await this.storeKeyFirst(id, apiKey);
    try {
      this.settings.set(`providers.${id}`, next);
    } catch (err) {
      if (apiKey) {
        if (previousKey) await this.vault.setKey(id, previousKey).catch(() => undefined);
        else await this.vault.deleteKey(id).catch(() => undefined);
      }
      throw err;
    }
    return { provider: await this.view(id, next) };
  }

  /** Stores the key (when one was typed) and returns the one it replaced; nothing is written without a keychain. */
  private async storeKeyFirst(id: string, apiKey: string | undefined): Promise<string | null> {
    if (!apiKey) return null;
    try {
      const previousKey = await this.vault.getKey(id);
      await this.vault.setKey(id, apiKey);
      return previousKey;
    } catch (err) {
      if (err instanceof KeychainUnavailableError) {
        throw new KeyNotSavedError(`Nothing was saved. ${keychainNotice(err)}`);
      }
      throw err;
    }
  }

  /**
   * Removes the provider and its keys. Without a keychain the provider still goes (one that only
   * ever used `key_env` has nothing stored); the answer says a key stored earlier may remain.
   */
  async remove(id: string): Promise<{ keyLeft?: string }> {
    const provider = this.config(id);
    let keyLeft: string | undefined;
    for (const profile of [undefined, ...(provider.profiles ?? [])]) {
      try {
        await this.vault.deleteKey(id, profile);
      } catch (err) {
        if (!(err instanceof KeychainUnavailableError)) throw err;
        keyLeft =
          `The keychain could not be reached, so a key stored for "${id}" earlier (if any) is still ` +
          `there, under service "hermes-desktop", account "${id}". Unlock the keychain and delete it there.`;
        break;
      }
    }
    this.settings.update((doc) => {
      if (doc.providers) delete doc.providers[id];
      if (doc.model?.provider === id) doc.model = { provider: "", model: "" };
      if (doc.fallback_providers)
        doc.fallback_providers = doc.fallback_providers.filter((f) => f.provider !== id);
    });
    return keyLeft ? { keyLeft } : {};
  }

  async models(id: string): Promise<{ models: string[] }> {
    const provider = this.config(id);
    const key = await requestKey(this.vault, id, provider.key_env ?? null);
    const client = createProviderClient({
      baseURL: provider.base_url,
      apiKey: key.apiKey,
      timeoutMs: modelsTimeoutMs,
    });
    try {
      const page = await client.models.list();
      this.modelInfo?.record(id, page.data);
      // Model ids are provider text too: a stored key never comes back in them (docs/contract.md §4).
      const keys = this.vault.knownKeys();
      const ids = page.data
        .map((m) => m.id)
        .filter((m): m is string => typeof m === "string")
        .map((id) => keys.reduce((text, key) => text.split(key).join("***"), id));
      return { models: [...new Set(ids)].sort((a, b) => a.localeCompare(b)) };
    } catch (err) {
      const status = (err as { status?: unknown }).status;
      const missing =
        status === 401 || status === 403
          ? missingKeyExplanation(key, provider.name, provider.key_env ?? null)
          : null;
      throw new ProviderAnswerError(
        missing
          ? `${missing} (${provider.name} answered ${String(status)}.)`
          : describeProviderError(err, provider.name, provider.base_url),
        fieldToFix(err, status),
      );
    }
  }
}

/** What a failed model list points at: the key (refused), the base URL (nothing there), or neither (try again). */
function fieldToFix(err: unknown, status: unknown): "apiKey" | "base_url" | undefined {
  if (status === 401 || status === 403) return "apiKey";
  if (err instanceof OpenAI.APIConnectionTimeoutError) return undefined;
  if (status === 404 || err instanceof OpenAI.APIConnectionError || err instanceof SyntaxError)
    return "base_url";
  return undefined;
}
