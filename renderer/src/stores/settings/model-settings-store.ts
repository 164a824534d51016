/**
 * Per-model settings under `providers.<id>.models` (docs/contract.md §3, §9.1): a context window and whether
 * the model takes images, for what the app can't learn from the provider. Read from the settings
 * document; written back one provider's map at a time.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { HermesClient } from "../../api/client.js";
import { describeError } from "../../api/rpc-error.js";
import { saveSetting } from "../../api/settings.js";
import type { ModelSettings, Settings } from "../../../../electron/host/rpc/methods/settings.js";
import { failedRefresh, latestOnly, loading, ready, type Loadable } from "../loadable.js";

export type ModelSetting = ModelSettings;

export type ProviderModelSettings = Readonly<Record<string, Readonly<Record<string, ModelSetting>>>>;

export interface ModelSettingsState {
  byProvider: Loadable<ProviderModelSettings>;
  load(): Promise<void>;
  /** Loads the first time a screen needs it (the Providers page), not at start-up. */
  ensureLoaded(): Promise<void>;
  /** After a settings change: reloads only once some screen has loaded it. */
  refreshIfLoaded(): Promise<void>;
  /** Rejects with the host's error (it names the key); the form shows it. */
  save(providerId: string, models: Record<string, ModelSetting>): Promise<void>;
}

export function modelSettingsFrom(settings: Settings): ProviderModelSettings {
  return Object.fromEntries(Object.entries(settings.providers).map(([id, p]) => [id, p.models ?? {}]));
}

export function createModelSettingsStore(client: HermesClient): StoreApi<ModelSettingsState> {
  const nextLoad = latestOnly();
  let started = false;
  return createStore<ModelSettingsState>()((set, get) => ({
    byProvider: loading(),
    async ensureLoaded() {
      if (!started) await get().load();
    },
    async refreshIfLoaded() {
      if (started) await get().load();
    },
    async load() {
      started = true;
      const isLatest = nextLoad();
      try {
        const settings = await client.call("settings.get", {});
        if (isLatest()) set({ byProvider: ready(modelSettingsFrom(settings)) });
      } catch (err) {
        if (isLatest()) set({ byProvider: failedRefresh(get().byProvider, describeError(err)) });
      }
    },
    async save(providerId, models) {
      await saveSetting(client, `providers.${providerId}.models`, models);
      await get().load();
    },
  }));
}
