/**
 * Configured providers and their "Test connection" results, in two slices. No API key is ever
 * kept here: `save` passes the caller's params straight to the host and stores only the answer.
 */
import { createStore, type StateCreator, type StoreApi } from "zustand/vanilla";
import type { ProvidersSaveParams, ProviderView } from "../../../../electron/host/rpc/methods/providers.js";
import type { HermesClient } from "../../api/client.js";
import { describeError, HermesRpcError } from "../../api/rpc-error.js";
import { failedRefresh, latestOnly, loading, ready, type Loadable } from "../loadable.js";

/** What a failed test points at, so the row offers the action that fixes it. */
export type ConnectionFix = "key" | "base_url" | "retry";

export type ConnectionTest =
  | { kind: "testing" }
  | { kind: "passed"; models: string[] }
  | { kind: "failed"; message: string; fix: ConnectionFix };

export interface ProviderListSlice {
  providers: Loadable<ProviderView[]>;
  load(): Promise<void>;
  /** Resolves with the saved provider; rejects with the host's error (the dialog shows it). */
  save(params: ProvidersSaveParams): Promise<ProviderView>;
  remove(id: string): Promise<void>;
  /** What the host said about a removal that could not reach the keychain (a key may remain). */
  removeNotice: string | null;
  clearRemoveNotice(): void;
}

export interface ConnectionTestSlice {
  connectionTests: Readonly<Record<string, ConnectionTest>>;
  testConnection(id: string): Promise<void>;
}

export type ProvidersState = ProviderListSlice & ConnectionTestSlice;

export interface ProvidersStoreOptions {
  /** Told when a provider was saved or removed, so caches keyed by provider id can drop it. */
  onProviderChanged?: (id: string) => void;
}

type Slice<T> = StateCreator<ProvidersState, [], [], T>;

const upsert = (list: ProviderView[], provider: ProviderView): ProviderView[] =>
  list.some((p) => p.id === provider.id)
    ? list.map((p) => (p.id === provider.id ? provider : p))
    : [...list, provider];

const withoutKey = <T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> => {
  const next = { ...record };
  delete next[key];
  return next;
};

const createListSlice =
  (client: HermesClient, options: ProvidersStoreOptions): Slice<ProviderListSlice> =>
  (set, get) => {
    const nextLoad = latestOnly();
    return {
      providers: loading(),
      async load() {
        const isLatest = nextLoad();
        try {
          const { providers } = await client.call("providers.list", {});
          if (isLatest()) set({ providers: ready(providers) });
        } catch (err) {
          if (isLatest()) set({ providers: failedRefresh(get().providers, describeError(err)) });
        }
      },
      async save(params) {
        const { provider } = await client.call("providers.save", params);
        nextLoad(); // an older list answer must not bring back the pre-save row
        const current = get().providers;
        set({
          providers: ready(upsert(current.kind === "ready" ? current.data : [], provider)),
          connectionTests: withoutKey(get().connectionTests, provider.id),
        });
        options.onProviderChanged?.(provider.id);
        return provider;
      },
      removeNotice: null,
      clearRemoveNotice() {
        set({ removeNotice: null });
      },
      async remove(id) {
        const { keyLeft } = await client.call("providers.remove", { id });
        set({ removeNotice: keyLeft ?? null });
        nextLoad();
        const current = get().providers;
        set({
          providers: ready(current.kind === "ready" ? current.data.filter((p) => p.id !== id) : []),
          connectionTests: withoutKey(get().connectionTests, id),
        });
        options.onProviderChanged?.(id);
      },
    };
  };

const createConnectionTestSlice =
  (client: HermesClient): Slice<ConnectionTestSlice> =>
  (set, get) => ({
    connectionTests: {},
    async testConnection(id) {
      set({ connectionTests: { ...get().connectionTests, [id]: { kind: "testing" } } });
      let result: ConnectionTest;
      try {
        const { models } = await client.call("providers.models", { id });
        result = { kind: "passed", models };
      } catch (err) {
        const key = err instanceof HermesRpcError ? err.key : undefined;
        const fix: ConnectionFix = key === "apiKey" ? "key" : key === "base_url" ? "base_url" : "retry";
        result = { kind: "failed", message: describeError(err), fix };
      }
      // The provider may have been removed or re-saved while the test ran; then the result is moot.
      if (get().connectionTests[id]?.kind === "testing") {
        set({ connectionTests: { ...get().connectionTests, [id]: result } });
      }
    },
  });

export function createProvidersStore(
  client: HermesClient,
  options: ProvidersStoreOptions = {},
): StoreApi<ProvidersState> {
  return createStore<ProvidersState>()((...a) => ({
    ...createListSlice(client, options)(...a),
    ...createConnectionTestSlice(client)(...a),
  }));
}

const emptyList: ProviderView[] = [];

export const selectProviderList = (state: ProvidersState): ProviderView[] =>
  state.providers.kind === "ready" ? state.providers.data : emptyList;

export const selectProviderById =
  (id: string) =>
  (state: ProvidersState): ProviderView | undefined =>
    selectProviderList(state).find((p) => p.id === id);
