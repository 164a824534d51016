/**
 * Writes to a session's transcript and tells clients about it: every added, changed or removed
 * message is one `session.message` / `session.message.removed` event, so the UI never polls.
 * Every message write goes through here, so it also keeps the recent sessions' transcripts in
 * memory for the request builder: a turn reads its history without a store round trip.
 * (The store also grows a streaming reply in place; its record here is replaced when it ends.)
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.js";
import type { EventHub } from "../events.js";
import type { EventPayloads, SessionEventName } from "../rpc/events.js";
import type { SessionStore } from "./session-store.js";
import { toMessageView, type SessionEventType } from "./turn-types.js";
import type { MessageMeta, MessagePatch, MessageRecord, NewMessage } from "./types.js";

/** How many sessions' transcripts stay in memory (most recently used). */
const CACHED_SESSIONS = 16;

/**
 * Writes a person's announced message, and `alsoWrite` in the same transaction (one commit: the
 * reply's row reserved while the request is in flight). Idempotent: once the message is written,
 * `alsoWrite` runs alone. A failure of either writes neither, and is thrown again on every call.
 */
export type PersistMessage = (alsoWrite?: () => void) => void;

/** A person's message could not be written: the turn stops, and says so. */
export class MessageNotSavedError extends Error {
  constructor(reason: string) {
    super(`Your message could not be saved, so it was not answered: ${reason}`);
    this.name = "MessageNotSavedError";
  }
}

export class Transcript {
  private readonly cache = new Map<string, MessageRecord[]>();
  /** Announced person's messages not written yet; every other write writes them first (order). */
  private readonly unwritten = new Map<string, PersistMessage>();

  constructor(
    private readonly store: () => SessionStore,
    private readonly hub: EventHub,
    private readonly clock: Clock,
  ) {}

  emit<T extends SessionEventType>(
    type: T,
    sessionId: T extends SessionEventName ? string : null,
    payload: EventPayloads[T],
  ): void {
    this.hub.emit(type, sessionId, payload);
  }

  /** The session's messages in order, as the request builder reads them. Do not mutate. */
  records(sessionId: string): readonly MessageRecord[] {
    const cached = this.cache.get(sessionId);
    if (cached) {
      this.cache.delete(sessionId);
      this.cache.set(sessionId, cached);
      return cached;
    }
    this.writeUnwritten();
    return this.remember(sessionId, this.store().listMessages(sessionId));
  }

  private remember(sessionId: string, list: MessageRecord[]): MessageRecord[] {
    this.cache.set(sessionId, list);
    if (this.cache.size > CACHED_SESSIONS) {
      const oldest = this.cache.keys().next().value as string;
      // An unwritten message lives only in its cached transcript: write it before letting go.
      if (this.unwritten.has(oldest)) this.writeUnwritten();
      this.cache.delete(oldest);
    }
    return list;
  }

  /** A session just created has no messages: its first turn need not ask the store. */
  startEmpty(sessionId: string): void {
    this.remember(sessionId, []);
  }

  /** Drops what is kept of a session (it was deleted, or changed outside the transcript). */
  forget(sessionId: string): void {
    this.cache.delete(sessionId);
  }

  append(input: NewMessage): MessageRecord {
    this.writeUnwritten();
    return this.added(this.store().appendMessage(input));
  }

  /**
   * A person's message that starts a turn, announced and in the transcript the request is built
   * from, but not yet on disk: the turn sends its request first and writes it while the request is
   * in flight (`persist`). Any other write to the store writes it first, so it keeps its place and
   * is always on disk before a reply's first text. Its search indexing waits for `settleUser`.
   */
  announceUser(input: NewMessage & { role: "user" }): { record: MessageRecord; persist: PersistMessage } {
    const { sessionId } = input;
    const list = this.cache.get(sessionId) ?? this.remember(sessionId, this.store().listMessages(sessionId));
    const metaJson = JSON.stringify(input.meta ?? {});
    const record: MessageRecord = {
      id: randomUUID(),
      sessionId,
      turnId: input.turnId ?? null,
      role: "user",
      content: input.content ?? "",
      status: "complete",
      // As reading the row back gives it.
      meta: JSON.parse(metaJson) as MessageMeta,
      createdAt: this.clock.now(),
      seq: (list.at(-1)?.seq ?? -1) + 1,
    };
    list.push(record);
    this.announce(record);
    let state: { kind: "unwritten" } | { kind: "written" } | { kind: "failed"; error: Error } = {
      kind: "unwritten",
    };
    const persist: PersistMessage = (alsoWrite) => {
      if (state.kind === "failed") throw state.error;
      if (state.kind === "written") return alsoWrite?.();
      this.unwritten.delete(sessionId);
      try {
        const store = this.store();
        const stored = store.transaction(() => {
          const written = store.appendUserMessageIndexLater(input, {
            id: record.id,
            createdAt: record.createdAt,
          });
          alsoWrite?.();
          return written;
        });
        state = { kind: "written" };
        // Another client's write in between would have moved it: then correct what clients saw.
        if (stored.seq !== record.seq) {
          this.forget(sessionId);
          this.announce(stored);
        }
      } catch (error) {
        const notSaved = new MessageNotSavedError(error instanceof Error ? error.message : String(error));
        state = { kind: "failed", error: notSaved };
        this.forget(sessionId);
        // Clients already show it: they keep it, marked with why it is not saved.
        this.announce({ ...record, status: "error", meta: { ...record.meta, error: notSaved.message } });
        throw notSaved;
      }
    };
    this.unwritten.set(sessionId, persist);
    return { record, persist };
  }

  /**
   * Writes every announced message still waiting: before any other write (to keep the order) and
   * before a read of the store that must show it.
   */
  writeUnwritten(): void {
    for (const persist of [...this.unwritten.values()]) {
      try {
        persist();
      } catch {
        // Its turn reports the failure; this write goes on (and meets the store's error itself).
      }
    }
  }

  /**
   * A person's message that starts a turn: on disk before this returns (a crash cannot lose it),
   * with its search indexing deferred until `settleUser` so the write stays off the path to the
   * first token.
   */
  appendUserIndexLater(input: NewMessage & { role: "user" }): MessageRecord {
    this.writeUnwritten();
    return this.added(this.store().appendUserMessageIndexLater(input));
  }

  /** Makes a message of `appendUserIndexLater` / `announceUser` searchable; a no-op once done. */
  settleUser(messageId: string): void {
    this.writeUnwritten();
    this.store().settleUserMessage(messageId);
  }

  /**
   * Announces a new message (with no text yet: clients need the reply before its first delta),
   * then stores it with the announced identity and `input.content`. Why: a reply whose row was not
   * reserved (a fallback's) writes its row and first text as one write in front of the first token.
   */
  appendAnnouncedFirst(input: NewMessage): MessageRecord {
    this.writeUnwritten();
    const store = this.store();
    const keep = { id: randomUUID(), createdAt: this.clock.now() };
    const known = this.cache.get(input.sessionId);
    const seq = known ? (known.at(-1)?.seq ?? -1) + 1 : store.nextSeq(input.sessionId);
    this.emit("session.message", input.sessionId, {
      message: {
        id: keep.id,
        role: input.role,
        content: "",
        createdAt: keep.createdAt,
        status: input.status ?? "complete",
        turnId: input.turnId ?? null,
        seq,
        meta: (input.meta ?? {}) as MessageMeta,
      },
    });
    const record = store.appendMessage(input, keep);
    this.keep(record);
    // A seq the cache got wrong would show here; then correct what clients saw.
    return record.seq === seq ? record : this.announce(record);
  }

  /**
   * A reply's row written ahead of its text, while its request is in flight, and not announced:
   * clients learn of it with its first text (`startReserved`). Why: nothing is written in front of
   * the first token; its text then is a one-page update of this row, not an insert with its indexes.
   */
  reserveReply(input: NewMessage & { role: "assistant"; status: "streaming" }): MessageRecord {
    this.writeUnwritten();
    const record = this.store().reserveReply({ ...input, content: "" });
    this.keep(record);
    return record;
  }

  /** Announces a reserved reply: its first text is shown next, and written as it is (stream-step.ts). */
  startReserved(record: MessageRecord): MessageRecord {
    return this.announce(record);
  }

  update(messageId: string, patch: MessagePatch): MessageRecord {
    this.writeUnwritten();
    const record = this.store().updateMessage(messageId, patch);
    const list = this.cache.get(record.sessionId);
    const index = list ? list.findLastIndex((m) => m.id === record.id) : -1;
    if (list && index >= 0) list[index] = record;
    else this.forget(record.sessionId);
    return this.announce(record);
  }

  moveToEnd(messageId: string, patch: MessagePatch & { turnId?: string | null } = {}): MessageRecord {
    const { turnId, ...rest } = patch;
    this.writeUnwritten();
    const store = this.store();
    const record = store.transaction(() => {
      const moved = store.moveMessageToEnd(messageId, turnId === undefined ? {} : { turnId });
      return Object.keys(rest).length ? store.updateMessage(moved.id, rest) : moved;
    });
    this.forget(record.sessionId);
    return this.announce(record);
  }

  remove(sessionId: string, messageIds: string[]): void {
    if (messageIds.length === 0) return;
    this.writeUnwritten();
    this.forget(sessionId);
    this.store().deleteMessages(messageIds);
    this.emit("session.message.removed", sessionId, { messageIds });
  }

  private added(record: MessageRecord): MessageRecord {
    this.keep(record);
    return this.announce(record);
  }

  /** Adds a new record to its cached transcript; anything out of order drops the cache instead. */
  private keep(record: MessageRecord): void {
    const list = this.cache.get(record.sessionId);
    if (!list) return;
    if ((list.at(-1)?.seq ?? -1) + 1 === record.seq) list.push(record);
    else this.forget(record.sessionId);
  }

  private announce(record: MessageRecord): MessageRecord {
    this.emit("session.message", record.sessionId, { message: toMessageView(record) });
    return record;
  }
}
