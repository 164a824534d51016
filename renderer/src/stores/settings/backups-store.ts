/** The session store's automatic backups (Settings → Chat → Restore from backup). */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { BackupView } from "../../../../electron/host/rpc/methods/backups.js";
import type { HermesClient } from "../../api/client.js";
import { describeError } from "../../api/rpc-error.js";
import { failedRefresh, latestOnly, loading, ready, type Loadable } from "../loadable.js";

export interface BackupsState {
  backups: Loadable<BackupView[]>;
  load(): Promise<void>;
  /** Resolves with where the replaced store was kept; rejects with the host's error (the dialog shows it). */
  restore(name: string): Promise<{ keptAside: string }>;
}

export function createBackupsStore(client: HermesClient): StoreApi<BackupsState> {
  const ticket = latestOnly();
  return createStore<BackupsState>()((set, get) => ({
    backups: loading(),
    async load() {
      const isLatest = ticket();
      try {
        const { backups } = await client.call("backups.list", {});
        if (isLatest()) set({ backups: ready(backups) });
      } catch (err) {
        if (isLatest()) set({ backups: failedRefresh(get().backups, describeError(err)) });
      }
    },
    async restore(name) {
      const { keptAside } = await client.call("backups.restore", { name });
      return { keptAside };
    },
  }));
}
