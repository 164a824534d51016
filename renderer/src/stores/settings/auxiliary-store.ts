/**
 * Auxiliary model slots (Settings → Models → Auxiliary, docs/contract.md §6.5): the host's rows as
 * `model.auxiliary.list` answers them, and the intents on them. After every change the whole list
 * is read again, because one pin can change the route of every slot that inherits from it.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { AuxiliaryTaskRow } from "../../../../electron/host/rpc/methods/model.js";
import type { HermesClient } from "../../api/client.js";
import { describeError } from "../../api/rpc-error.js";
import { failedRefresh, latestOnly, loading, ready, type Loadable } from "../loadable.js";

export interface AuxiliaryState {
  tasks: Loadable<AuxiliaryTaskRow[]>;
  load(): Promise<void>;
  /** Pins a slot to a provider and model. Rejects with the host's error; the editor shows it. */
  pin(task: string, provider: string, model: string): Promise<void>;
  /** Back to auto: the slot follows its base, else the main model. */
  follow(task: string): Promise<void>;
  resetAll(): Promise<void>;
}

export function createAuxiliaryStore(client: HermesClient): StoreApi<AuxiliaryState> {
  const nextLoad = latestOnly();
  return createStore<AuxiliaryState>()((set, get) => {
    const setAndReload = async (task: string, provider: string, model: string) => {
      await client.call("model.set", { scope: "auxiliary", task, provider, model });
      await get().load();
    };
    return {
      tasks: loading(),
      async load() {
        const isLatest = nextLoad();
        try {
          const { tasks } = await client.call("model.auxiliary.list", {});
          if (isLatest()) set({ tasks: ready(tasks) });
        } catch (err) {
          if (isLatest()) set({ tasks: failedRefresh(get().tasks, describeError(err)) });
        }
      },
      pin: (task, provider, model) => setAndReload(task, provider, model),
      follow: (task) => setAndReload(task, "auto", ""),
      resetAll: () => setAndReload("__reset__", "auto", ""),
    };
  });
}
