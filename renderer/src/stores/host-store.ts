/** Host facts (version, mode, notices), the notices the user dismissed, and the connection status. */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { HostInfo, Notice } from "../../../electron/host/rpc/methods/host-info.js";
import type { ConnectionStatus, HermesClient } from "../api/client.js";
import { describeError } from "../api/rpc-error.js";
import { failedRefresh, latestOnly, loading, ready, type Loadable } from "./loadable.js";

export interface HostState {
  info: Loadable<HostInfo>;
  /** Keys of notices dismissed in this window; not persisted, a restart shows them again. */
  dismissedNotices: readonly string[];
  connection: ConnectionStatus;
  load(): Promise<void>;
  dismissNotice(notice: Notice): void;
  setConnection(status: ConnectionStatus): void;
}

export const noticeKey = (notice: Notice): string => `${notice.kind}\u0000${notice.message}`;

export function createHostStore(client: HermesClient): StoreApi<HostState> {
  const nextLoad = latestOnly();
  return createStore<HostState>()((set, get) => ({
    info: loading(),
    dismissedNotices: [],
    connection: client.status,
    async load() {
      const isLatest = nextLoad();
      try {
        const info = await client.call("host.info", {});
        if (isLatest()) set({ info: ready(info) });
      } catch (err) {
        if (isLatest()) set({ info: failedRefresh(get().info, describeError(err)) });
      }
    },
    dismissNotice(notice) {
      const key = noticeKey(notice);
      if (!get().dismissedNotices.includes(key)) set({ dismissedNotices: [...get().dismissedNotices, key] });
    },
    setConnection(status) {
      set({ connection: status });
    },
  }));
}

/**
 * The notice that no keychain answers: a banner on every screen (README: said "at start-up … on
 * every screen") but Settings → Providers, whose page and form say it in place, in their words.
 */
export const KEYCHAIN_NOTICE_KIND = "keychain_unavailable";

/** Notices still to show as banners. Use with `useShallow`: it builds a new array. */
export const selectVisibleNotices = (state: HostState): Notice[] =>
  state.info.kind === "ready"
    ? state.info.data.notices.filter((notice) => !state.dismissedNotices.includes(noticeKey(notice)))
    : [];

/** What to tell someone about to type an API key when no keychain can store it; null when one can. */
export const selectKeychainProblem = (state: HostState): string | null =>
  state.info.kind === "ready"
    ? (state.info.data.notices.find((notice) => notice.kind === KEYCHAIN_NOTICE_KIND)?.message ?? null)
    : null;
