/**
 * The session list (newest first, as the host orders it), search over titles and message text,
 * which session is open, rename, and delete with a short undo window: the row disappears at once
 * and the host deletes it only when the window closes.
 */
import { createStore, type StateCreator, type StoreApi } from "zustand/vanilla";
import type { HermesClient } from "../../api/client.js";
import { describeError } from "../../api/rpc-error.js";
import type { SessionListItem } from "./chat-model.js";
import type { LastChatMemory } from "./last-chat.js";
import { failedRefresh, latestOnly, loading, ready, type Loadable } from "../loadable.js";

/** Long enough to read the toast and act on it (a dismissed toast ends it sooner). */
export const UNDO_DELETE_MS = 10_000;
export const SEARCH_DEBOUNCE_MS = 150;

export interface SessionListSlice {
  sessions: Loadable<readonly SessionListItem[]>;
  /** null: a new chat, not yet sent (no session exists for it). */
  selectedId: string | null;
  load(): Promise<void>;
  /** Loads the list unless a load was started already (the window starts one as it opens). */
  ensureLoaded(): Promise<void>;
  select(sessionId: string | null, options?: { fresh?: boolean }): void;
  /** Creates a session for the first message of a new chat and opens it. */
  createForFirstMessage(): Promise<string>;
  rename(sessionId: string, title: string): Promise<void>;
  /** Pins a chat to the top of the list or unpins it; the list reloads from the host. */
  setPinned(sessionId: string, pinned: boolean): void;
  applyTitle(sessionId: string, title: string): void;
  /** Imports a JSON export as a new chat and opens it; rejects with the host's error. */
  importChat(content: string): Promise<void>;
}

export interface SearchSlice {
  query: string;
  /** null when the query is empty. */
  results: Loadable<readonly SessionListItem[]> | null;
  setQuery(query: string): void;
}

export interface PendingDelete {
  sessionId: string;
  title: string;
}

export interface DeleteSlice {
  pendingDelete: PendingDelete | null;
  deleteError: string | null;
  /** Why the last pin or unpin failed (shown above the list), or null. */
  pinError: string | null;
  /** Hides the session now; the host deletes it when the undo window closes. */
  requestDelete(sessionId: string): void;
  undoDelete(): void;
  /** Ends the undo window at once (a second delete, or the toast's close button). */
  commitDelete(): Promise<void>;
  dismissDeleteError(): void;
}

export type SessionsState = SessionListSlice & SearchSlice & DeleteSlice;

type Slice<T> = StateCreator<SessionsState, [], [], T>;

export interface SessionsStoreOptions {
  /** Told when the open session changes, so its transcript can load. */
  onSelect?: (sessionId: string | null, options: { fresh: boolean }) => void;
  undoMs?: number;
  searchDebounceMs?: number;
  /** Where the open chat is remembered, so a reload reopens it; none = not remembered. */
  lastChat?: LastChatMemory;
}

const createListSlice =
  (client: HermesClient, options: SessionsStoreOptions): Slice<SessionListSlice> =>
  (set, get) => {
    const nextLoad = latestOnly();
    // The first list that arrives reopens the chat open before a reload (if it is still there).
    let reopened = false;
    const reopenLast = (sessions: readonly SessionListItem[]) => {
      if (reopened || !options.lastChat) return;
      reopened = true;
      const last = options.lastChat.read();
      if (!last || get().selectedId !== null) return;
      if (sessions.some((s) => s.sessionId === last)) get().select(last);
      else options.lastChat.write(null);
    };
    let firstLoad: Promise<void> | null = null;
    return {
      sessions: loading(),
      selectedId: null,
      ensureLoaded() {
        return (firstLoad ??= get().load());
      },
      async load() {
        firstLoad ??= Promise.resolve();
        const isLatest = nextLoad();
        try {
          const { sessions } = await client.call("session.list", {});
          if (isLatest()) {
            set({ sessions: ready(sessions) });
            reopenLast(sessions);
          }
        } catch (err) {
          if (isLatest()) set({ sessions: failedRefresh(get().sessions, describeError(err)) });
        }
        if (get().query.trim()) get().setQuery(get().query);
      },
      select(sessionId, selectOptions = {}) {
        if (sessionId === get().selectedId) return;
        set({ selectedId: sessionId });
        reopened = true; // a choice made before the list came is not overridden
        if (sessionId) options.lastChat?.write(sessionId);
        options.onSelect?.(sessionId, { fresh: selectOptions.fresh ?? false });
      },
      async createForFirstMessage() {
        const { sessionId } = await client.call("session.create", {});
        const now = Date.now();
        const current = get().sessions;
        const row: SessionListItem = { sessionId, title: "New chat", createdAt: now, updatedAt: now };
        if (current.kind === "ready" && !current.data.some((s) => s.sessionId === sessionId)) {
          set({ sessions: { ...current, data: [row, ...current.data] } });
        }
        get().select(sessionId, { fresh: true });
        return sessionId;
      },
      async rename(sessionId, title) {
        const trimmed = title.trim();
        if (!trimmed) return;
        const previous = get().sessions;
        get().applyTitle(sessionId, trimmed);
        try {
          await client.call("session.rename", { sessionId, title: trimmed });
        } catch (err) {
          set({ sessions: previous });
          throw err;
        }
      },
      setPinned(sessionId, pinned) {
        client
          .call("session.pin", { sessionId, pinned })
          .then(() => get().load())
          .then(() => set({ pinError: null }))
          .catch((err: unknown) =>
            set({ pinError: `Couldn't ${pinned ? "pin" : "unpin"} the chat: ${describeError(err)}` }),
          );
      },
      async importChat(content) {
        const { sessionId } = await client.call("session.import", { content });
        await get().load();
        get().select(sessionId);
      },
      applyTitle(sessionId, title) {
        const current = get().sessions;
        if (current.kind !== "ready") return;
        set({
          sessions: {
            ...current,
            data: current.data.map((s) => (s.sessionId === sessionId ? { ...s, title } : s)),
          },
        });
      },
    };
  };

const createSearchSlice =
  (client: HermesClient, options: SessionsStoreOptions): Slice<SearchSlice> =>
  (set) => {
    const nextSearch = latestOnly();
    let timer: ReturnType<typeof setTimeout> | null = null;
    return {
      query: "",
      results: null,
      setQuery(query) {
        if (timer) clearTimeout(timer);
        timer = null;
        const isLatest = nextSearch();
        if (!query.trim()) {
          set({ query, results: null });
          return;
        }
        set((s) => ({ query, results: s.results ?? loading() }));
        timer = setTimeout(async () => {
          timer = null;
          try {
            const { sessions } = await client.call("session.list", { query: query.trim() });
            if (isLatest()) set({ results: ready(sessions) });
          } catch (err) {
            if (isLatest()) set({ results: { kind: "failed", message: describeError(err) } });
          }
        }, options.searchDebounceMs ?? SEARCH_DEBOUNCE_MS);
      },
    };
  };

const createDeleteSlice =
  (client: HermesClient, options: SessionsStoreOptions): Slice<DeleteSlice> =>
  (set, get) => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const clearTimer = () => {
      if (timer) clearTimeout(timer);
      timer = null;
    };
    return {
      pendingDelete: null,
      deleteError: null,
      pinError: null,
      requestDelete(sessionId) {
        void get().commitDelete();
        const list = get().sessions;
        const title =
          (list.kind === "ready" ? list.data.find((s) => s.sessionId === sessionId)?.title : undefined) ??
          "Chat";
        set({ pendingDelete: { sessionId, title }, deleteError: null });
        if (get().selectedId === sessionId) get().select(null);
        timer = setTimeout(() => void get().commitDelete(), options.undoMs ?? UNDO_DELETE_MS);
      },
      undoDelete() {
        clearTimer();
        set({ pendingDelete: null });
      },
      async commitDelete() {
        clearTimer();
        const pending = get().pendingDelete;
        if (!pending) return;
        set({ pendingDelete: null });
        const list = get().sessions;
        if (list.kind === "ready") {
          set({ sessions: { ...list, data: list.data.filter((s) => s.sessionId !== pending.sessionId) } });
        }
        try {
          await client.call("session.delete", { sessionId: pending.sessionId });
        } catch (err) {
          set({ deleteError: `Couldn't delete “${pending.title}”: ${describeError(err)}` });
          void get().load();
        }
      },
      dismissDeleteError() {
        set({ deleteError: null });
      },
    };
  };

export function createSessionsStore(
  client: HermesClient,
  options: SessionsStoreOptions = {},
): StoreApi<SessionsState> {
  return createStore<SessionsState>()((...a) => ({
    ...createListSlice(client, options)(...a),
    ...createSearchSlice(client, options)(...a),
    ...createDeleteSlice(client, options)(...a),
  }));
}

const none: readonly SessionListItem[] = [];

/** The sessions to show: the list minus the one waiting out its undo window. */
export const selectVisibleSessions = (state: SessionsState): readonly SessionListItem[] => {
  const list = state.sessions.kind === "ready" ? state.sessions.data : none;
  const hidden = state.pendingDelete?.sessionId;
  return hidden ? list.filter((s) => s.sessionId !== hidden) : list;
};

export const selectSelectedTitle = (state: SessionsState): string | null => {
  const id = state.selectedId;
  if (!id || state.sessions.kind !== "ready") return null;
  return state.sessions.data.find((s) => s.sessionId === id)?.title ?? null;
};
