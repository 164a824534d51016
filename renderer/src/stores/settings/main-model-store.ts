/**
 * The main model (`model` in config.yaml) and the model lists of providers, fetched on demand
 * with `providers.models` and kept until the provider changes.
 */
import { createStore, type StateCreator, type StoreApi } from "zustand/vanilla";
import type { HermesClient } from "../../api/client.js";
import { describeError } from "../../api/rpc-error.js";
import type { MainModel } from "../../../../electron/host/rpc/methods/settings.js";
import { failedRefresh, latestOnly, loading, ready, type Loadable } from "../loadable.js";

export type { MainModel };

export type ModelList =
  { kind: "loading" } | { kind: "ready"; models: string[] } | { kind: "failed"; message: string };

export interface CurrentModelSlice {
  /** null when no main model is chosen yet. */
  current: Loadable<MainModel | null>;
  loadCurrent(): Promise<void>;
  /** Rejects with the host's error; the form shows it. */
  save(choice: MainModel): Promise<MainModel>;
}

export interface ModelListsSlice {
  modelLists: Readonly<Record<string, ModelList>>;
  /** Fetches unless a list is already there or on its way; `force` fetches again. */
  loadModels(providerId: string, options?: { force?: boolean }): Promise<void>;
  forgetModels(providerId: string): void;
}

export type MainModelState = CurrentModelSlice & ModelListsSlice;

type Slice<T> = StateCreator<MainModelState, [], [], T>;

const createCurrentModelSlice =
  (client: HermesClient): Slice<CurrentModelSlice> =>
  (set, get) => {
    const nextLoad = latestOnly();
    return {
      current: loading(),
      async loadCurrent() {
        const isLatest = nextLoad();
        try {
          const settings = await client.call("settings.get", {});
          // The host answers the effective settings: provider "" means none chosen yet.
          if (isLatest()) set({ current: ready(settings.model.provider ? { ...settings.model } : null) });
        } catch (err) {
          if (isLatest()) set({ current: failedRefresh(get().current, describeError(err)) });
        }
      },
      async save(choice) {
        const result = await client.call("model.set", { scope: "main", ...choice });
        const saved = result.scope === "main" ? { provider: result.provider, model: result.model } : choice;
        nextLoad();
        set({ current: ready(saved) });
        return saved;
      },
    };
  };

const createModelListsSlice =
  (client: HermesClient): Slice<ModelListsSlice> =>
  (set, get) => ({
    modelLists: {},
    async loadModels(providerId, options = {}) {
      const existing = get().modelLists[providerId];
      if (existing && existing.kind !== "failed" && !options.force) return;
      set({ modelLists: { ...get().modelLists, [providerId]: { kind: "loading" } } });
      let list: ModelList;
      try {
        const { models } = await client.call("providers.models", { id: providerId });
        list = { kind: "ready", models };
      } catch (err) {
        list = { kind: "failed", message: describeError(err) };
      }
      // Dropped meanwhile (provider edited or removed): don't resurrect a stale list.
      if (get().modelLists[providerId]?.kind === "loading") {
        set({ modelLists: { ...get().modelLists, [providerId]: list } });
      }
    },
    forgetModels(providerId) {
      if (!(providerId in get().modelLists)) return;
      const next = { ...get().modelLists };
      delete next[providerId];
      set({ modelLists: next });
    },
  });

export function createMainModelStore(client: HermesClient): StoreApi<MainModelState> {
  return createStore<MainModelState>()((...a) => ({
    ...createCurrentModelSlice(client)(...a),
    ...createModelListsSlice(client)(...a),
  }));
}

export const selectCurrentMainModel = (state: MainModelState): MainModel | null =>
  state.current.kind === "ready" ? state.current.data : null;
