/**
 * The open session's transcript: its messages in `seq` order, the turn running in it, streamed
 * text (coalesced and paced per animation frame, frame-batcher.ts), and its token usage. Only the message a delta or event
 * touches gets a new object, so memoized rows of the others never re-render.
 */
import { createStore, type StateCreator, type StoreApi } from "zustand/vanilla";
import type { HermesClient } from "../../api/client.js";
import { describeError } from "../../api/rpc-error.js";
import type { ChatEvent, ChatMessage, UsageRow } from "./chat-model.js";
import { DeltaBatcher, type FrameScheduler } from "./frame-batcher.js";
import { failedRefresh, latestOnly, loading, ready, type Loadable } from "../loadable.js";
import { appendStreamed, type StreamedText } from "./streamed-text.js";

/**
 * A message as the transcript holds it: a reply being streamed also carries its text as the pieces
 * that came (the same text as `content`), so its view reads only what is new. The host's message
 * replaces it when the reply ends, without them.
 */
export type TranscriptMessage = ChatMessage & { readonly streamed?: StreamedText };

export interface TranscriptSlice {
  /** null: a new chat that has no session yet (created on the first send). */
  sessionId: string | null;
  messages: Loadable<readonly TranscriptMessage[]>;
  runningTurnId: string | null;
  /** A turn that failed before any reply message carried the error (e.g. no route). */
  turnError: string | null;
  /** The last turn that started while this chat was shown (its error is announced; older ones are not). */
  liveTurnId: string | null;
  /** `fresh`: the session was just created, so it is known to be empty (no load needed). */
  open(sessionId: string | null, options?: { fresh?: boolean }): Promise<void>;
  reload(): Promise<void>;
  handleEvent(event: ChatEvent): void;
  /** The host accepted a message that started a turn; the started event may still be on its way. */
  noteTurnStarted(sessionId: string, turnId: string): void;
  /** A message to scroll to once shown (an opened search hit); the transcript clears it when done. */
  focusMessageId: string | null;
  focusMessage(messageId: string): void;
  clearFocusMessage(): void;
}

/** What the open chat runs with, as changed from its header (null until loaded, or for a new chat). */
export interface ChatOwnSettings {
  model: { provider: string; model: string };
  systemPrompt: string;
}

export interface TurnActionsSlice {
  actionError: string | null;
  own: ChatOwnSettings | null;
  /** Reject with the host's error; the dialog shows it. */
  setModel(provider: string, model: string): Promise<void>;
  setSystemPrompt(prompt: string): Promise<void>;
  /** Sends an edited version of a message (the turns after it are replaced); false when refused. */
  editMessage(messageId: string, text: string): Promise<boolean>;
  /** The message being edited in place (null: none). */
  editingMessageId: string | null;
  setEditingMessageId(messageId: string | null): void;
  switchVersion(group: string, version: number): Promise<void>;
  /** The open chat as a file; rejects with the host's error. */
  exportChat(format: "markdown" | "json"): Promise<{ filename: string; mimeType: string; content: string }>;
  /** Accepts (adds to Memory) or dismisses a background review's proposal; rejects with the host's error. */
  answerMemoryProposal(messageId: string, accept: boolean): Promise<void>;
  stop(): Promise<void>;
  regenerate(): Promise<void>;
  clearActionError(): void;
}

export interface UsageSlice {
  /** null until someone asks for it. */
  usage: Loadable<readonly UsageRow[]> | null;
  loadUsage(): Promise<void>;
}

export type TranscriptState = TranscriptSlice & TurnActionsSlice & UsageSlice;

type Slice<T> = StateCreator<TranscriptState, [], [], T>;

export interface TranscriptStoreOptions {
  scheduleFrame?: FrameScheduler;
}

/** Inserts or replaces `message`, keeping the list ordered by `seq` (a queued message moves). */
export function upsertMessage(list: readonly TranscriptMessage[], message: ChatMessage): TranscriptMessage[] {
  const rest = list.filter((m) => m.id !== message.id);
  let index = rest.length;
  while (index > 0 && (rest[index - 1] as TranscriptMessage).seq > message.seq) index--;
  rest.splice(index, 0, message);
  return rest;
}

/**
 * A message whose text did not change (a streamed reply that ended): it replaces the one held with
 * the text held, its streamed pieces left behind; null when no such message is held.
 */
export function withHeldContent(
  list: readonly TranscriptMessage[],
  message: Omit<ChatMessage, "content">,
): TranscriptMessage[] | null {
  const held = list.find((m) => m.id === message.id);
  return held ? upsertMessage(list, { ...message, content: held.content }) : null;
}

/** Appends streamed text to the turn's reply being written; a delta with no such reply waits for the final message. */
export function applyDeltas(
  list: readonly TranscriptMessage[],
  deltas: ReadonlyMap<string, string>,
): readonly TranscriptMessage[] {
  let next: TranscriptMessage[] | null = null;
  for (const [turnId, text] of deltas) {
    const source: readonly TranscriptMessage[] = next ?? list;
    const index = source.findLastIndex(
      (m) => m.role === "assistant" && m.turnId === turnId && m.status === "streaming",
    );
    if (index < 0) continue;
    next ??= [...list];
    const target = next[index] as TranscriptMessage;
    // Text the message already had (from the host) is the first piece.
    const streamed = target.streamed ?? (target.content ? appendStreamed(null, target.content) : null);
    next[index] = { ...target, content: target.content + text, streamed: appendStreamed(streamed, text) };
  }
  return next ?? list;
}

const createTranscriptSlice =
  (client: HermesClient, options: TranscriptStoreOptions): Slice<TranscriptSlice> =>
  (set, get) => {
    const nextLoad = latestOnly();
    const batcher = new DeltaBatcher(
      (deltas) => {
        const current = get().messages;
        if (current.kind !== "ready") return;
        const data = applyDeltas(current.data, deltas);
        if (data !== current.data) set({ messages: { ...current, data } });
      },
      options.scheduleFrame && { schedule: options.scheduleFrame },
    );

    // Events that arrive while the transcript loads are replayed on the loaded list (an answer
    // computed before a message was added must not lose it).
    let heldEvents: ChatEvent[] = [];

    const updateMessages = (
      change: (list: readonly TranscriptMessage[]) => readonly TranscriptMessage[],
    ): void => {
      const current = get().messages;
      if (current.kind === "ready") set({ messages: { ...current, data: change(current.data) } });
    };

    const load = async (sessionId: string): Promise<void> => {
      const isLatest = nextLoad();
      try {
        const [{ messages }, details] = await Promise.all([
          client.call("session.messages", { sessionId }),
          client.call("session.get", { sessionId }),
        ]);
        if (!isLatest() || get().sessionId !== sessionId) return;
        batcher.discard(); // the loaded text already holds every delta sent before it
        set({
          messages: ready(messages),
          runningTurnId: details.runningTurnId,
          own: { model: details.model, systemPrompt: details.systemPrompt ?? "" },
        });
        const held = heldEvents;
        heldEvents = [];
        for (const event of held) get().handleEvent(event);
      } catch (err) {
        if (isLatest() && get().sessionId === sessionId) {
          set({ messages: failedRefresh(get().messages, describeError(err)) });
        }
      }
    };

    // A chat just created has no messages to load, but what it runs with is worth knowing.
    const loadOwn = async (sessionId: string): Promise<void> => {
      try {
        const details = await client.call("session.get", { sessionId });
        if (get().sessionId === sessionId) {
          set({ own: { model: details.model, systemPrompt: details.systemPrompt ?? "" } });
        }
      } catch {
        // The header falls back to the main model; the next open tries again.
      }
    };

    return {
      sessionId: null,
      messages: ready([]),
      runningTurnId: null,
      turnError: null,
      liveTurnId: null,
      focusMessageId: null,
      focusMessage(messageId) {
        set({ focusMessageId: messageId });
      },
      clearFocusMessage() {
        if (get().focusMessageId !== null) set({ focusMessageId: null });
      },
      async open(sessionId, openOptions = {}) {
        if (sessionId === get().sessionId && get().messages.kind !== "failed") return;
        batcher.discard();
        heldEvents = [];
        nextLoad();
        set({
          sessionId,
          messages: sessionId && !openOptions.fresh ? loading() : ready([]),
          runningTurnId: null,
          turnError: null,
          liveTurnId: null,
          focusMessageId: null,
          usage: null,
          actionError: null,
          own: null,
          editingMessageId: null,
        });
        if (sessionId && !openOptions.fresh) await load(sessionId);
        else if (sessionId) void loadOwn(sessionId);
      },
      async reload() {
        const id = get().sessionId;
        if (id) await load(id);
      },
      handleEvent(event) {
        if (event.type === "sessions.changed" || event.sessionId !== get().sessionId) return;
        if (get().messages.kind === "loading") {
          if (event.type !== "session.delta") heldEvents.push(event);
          return;
        }
        if (event.type === "session.delta") {
          batcher.push(event.turnId, event.text);
          return;
        }
        batcher.flush(); // whatever follows must land after the text streamed before it
        switch (event.type) {
          case "session.message": {
            if (!("sameContent" in event)) {
              updateMessages((list) => upsertMessage(list, event.message));
              break;
            }
            const current = get().messages;
            const kept = current.kind === "ready" ? withHeldContent(current.data, event.message) : null;
            // A message this window never held (it can't know its text): read the transcript again.
            if (current.kind === "ready" && kept) set({ messages: { ...current, data: kept } });
            else void get().reload();
            break;
          }
          case "session.message.removed": {
            const gone = new Set(event.messageIds);
            updateMessages((list) => list.filter((m) => !gone.has(m.id)));
            break;
          }
          case "session.turn.started":
            set({ runningTurnId: event.turnId, liveTurnId: event.turnId, turnError: null });
            break;
          case "session.turn.finished": {
            const replyShowsError = get().messages.kind === "ready" && hasErrorMessage(get(), event.turnId);
            set({
              ...(get().runningTurnId === event.turnId ? { runningTurnId: null } : {}),
              turnError: event.status === "error" && event.error && !replyShowsError ? event.error : null,
            });
            if (get().usage) void get().loadUsage();
            break;
          }
          default:
            break;
        }
      },
      noteTurnStarted(sessionId, turnId) {
        if (get().sessionId === sessionId && get().runningTurnId === null)
          set({ runningTurnId: turnId, liveTurnId: turnId });
      },
    };
  };

function hasErrorMessage(state: TranscriptState, turnId: string): boolean {
  return (
    state.messages.kind === "ready" &&
    state.messages.data.some((m) => m.turnId === turnId && m.status === "error")
  );
}

const createTurnActionsSlice =
  (client: HermesClient): Slice<TurnActionsSlice> =>
  (set, get) => ({
    actionError: null,
    own: null,
    async setModel(provider, model) {
      const sessionId = get().sessionId;
      if (!sessionId) return;
      const result = await client.call("session.setModel", { sessionId, provider, model });
      const own = get().own;
      if (get().sessionId === sessionId)
        set({ own: { systemPrompt: own?.systemPrompt ?? "", model: result.model } });
    },
    async setSystemPrompt(prompt) {
      const sessionId = get().sessionId;
      if (!sessionId) return;
      const { systemPrompt } = await client.call("session.setSystemPrompt", { sessionId, prompt });
      const own = get().own;
      if (get().sessionId === sessionId && own) set({ own: { ...own, systemPrompt } });
    },
    editingMessageId: null,
    setEditingMessageId(messageId) {
      set({ editingMessageId: messageId });
    },
    async editMessage(messageId, text) {
      const sessionId = get().sessionId;
      if (!sessionId) return false;
      set({ actionError: null, turnError: null });
      try {
        const { turnId } = await client.call("session.edit", { sessionId, messageId, text });
        get().noteTurnStarted(sessionId, turnId);
        return true;
      } catch (err) {
        set({ actionError: `Couldn't send the edited message: ${describeError(err)}` });
        return false;
      }
    },
    async exportChat(format) {
      const sessionId = get().sessionId;
      if (!sessionId) throw new Error("Send a message first; an empty chat has nothing to export.");
      return client.call("session.export", { sessionId, format });
    },
    async answerMemoryProposal(messageId, accept) {
      const sessionId = get().sessionId;
      if (!sessionId) return;
      if (accept) await client.call("memory.review.accept", { sessionId, messageId });
      else await client.call("memory.review.dismiss", { sessionId, messageId });
    },
    async switchVersion(group, version) {
      const sessionId = get().sessionId;
      if (!sessionId) return;
      try {
        await client.call("session.switchVersion", { sessionId, group, version });
      } catch (err) {
        set({ actionError: `Couldn't show that version: ${describeError(err)}` });
      }
    },
    async stop() {
      const sessionId = get().sessionId;
      if (!sessionId || !get().runningTurnId) return;
      try {
        await client.call("session.stop", { sessionId });
      } catch (err) {
        set({ actionError: `Couldn't stop the reply: ${describeError(err)}` });
      }
    },
    async regenerate() {
      const sessionId = get().sessionId;
      if (!sessionId) return;
      set({ actionError: null, turnError: null });
      try {
        const { turnId } = await client.call("session.regenerate", { sessionId });
        get().noteTurnStarted(sessionId, turnId);
      } catch (err) {
        set({ actionError: `Couldn't regenerate the reply: ${describeError(err)}` });
      }
    },
    clearActionError() {
      set({ actionError: null });
    },
  });

const createUsageSlice =
  (client: HermesClient): Slice<UsageSlice> =>
  (set, get) => {
    const nextLoad = latestOnly();
    return {
      usage: null,
      async loadUsage() {
        const sessionId = get().sessionId;
        if (!sessionId) {
          set({ usage: ready([]) });
          return;
        }
        const isLatest = nextLoad();
        if (!get().usage) set({ usage: loading() });
        try {
          const { rows } = await client.call("session.usage", { sessionId });
          if (isLatest() && get().sessionId === sessionId) set({ usage: ready(rows) });
        } catch (err) {
          if (isLatest() && get().sessionId === sessionId) {
            set({ usage: failedRefresh(get().usage ?? loading(), describeError(err)) });
          }
        }
      },
    };
  };

export function createTranscriptStore(
  client: HermesClient,
  options: TranscriptStoreOptions = {},
): StoreApi<TranscriptState> {
  return createStore<TranscriptState>()((...a) => ({
    ...createTranscriptSlice(client, options)(...a),
    ...createTurnActionsSlice(client)(...a),
    ...createUsageSlice(client)(...a),
  }));
}

const noMessages: readonly TranscriptMessage[] = [];

export const selectMessages = (state: TranscriptState): readonly TranscriptMessage[] =>
  state.messages.kind === "ready" ? state.messages.data : noMessages;

export const selectIsRunning = (state: TranscriptState): boolean => state.runningTurnId !== null;

/** The tool message that answered a call, for the call's details (stable while it is unchanged). */
export const selectToolResult =
  (toolCallId: string) =>
  (state: TranscriptState): ChatMessage | undefined =>
    selectMessages(state).find((m) => m.role === "tool" && m.meta?.toolCallId === toolCallId);

/** The id of the reply Regenerate would replace: the last assistant message, when nothing runs. */
export const selectRegenerableId = (state: TranscriptState): string | null => {
  if (state.runningTurnId) return null;
  const list = selectMessages(state);
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i] as ChatMessage;
    if (isArchived(m)) continue;
    if (m.role === "assistant") return m.meta?.command ? null : m.id;
    if (m.role === "user" && !m.meta?.pending) return null;
  }
  return null;
};

/** A message of an earlier version of an edited exchange: kept, not shown. */
export const isArchived = (message: ChatMessage): boolean =>
  typeof message.meta?.archived === "object" && message.meta.archived !== null;

export interface VersionInfo {
  group: string;
  current: number;
  total: number;
}

const branchOf = (value: unknown): { group: string; version: number } | null => {
  const mark = value as { group?: unknown; version?: unknown } | null | undefined;
  return mark && typeof mark.group === "string" && typeof mark.version === "number"
    ? { group: mark.group, version: mark.version }
    : null;
};

/** For each shown message that has versions, which one it is and how many there are. */
export function versionsOf(messages: readonly ChatMessage[]): Map<string, VersionInfo> {
  const totals = new Map<string, number>();
  for (const m of messages) {
    const mark = branchOf(m.meta?.branch) ?? branchOf(m.meta?.archived);
    if (mark) totals.set(mark.group, Math.max(totals.get(mark.group) ?? 1, mark.version));
  }
  const result = new Map<string, VersionInfo>();
  for (const m of messages) {
    const mark = branchOf(m.meta?.branch);
    if (!mark || isArchived(m) || m.role !== "user") continue;
    result.set(m.id, { group: mark.group, current: mark.version, total: totals.get(mark.group) ?? 1 });
  }
  return result;
}

/** The last message of the person that Edit message can take (not a command, not waiting). */
export const selectLastEditableId = (state: TranscriptState): string | null =>
  selectMessages(state).findLast(
    (m) =>
      m.role === "user" && !isArchived(m) && m.meta?.pending !== true && typeof m.meta?.command !== "string",
  )?.id ?? null;
