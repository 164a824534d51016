/**
 * Writes to a session's transcript and tells clients about it: every added, changed or removed
 * message is one `session.message` / `session.message.removed` event, so the UI never polls.
 * Every message write goes through here, so it also keeps the recent sessions' transcripts in
 * memory for the request builder: a turn reads its history without a store round trip.
 * (The store also grows a streaming reply in place; its record here is replaced when it ends.)
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../../clock.js";
import type { EventHub } from "../../events.js";
import type { EventPayloads, SessionEventName } from "../../rpc/events.js";
import { AnnouncedMessage, MessageNotSavedError } from "./announced-message.js";
import type { SessionStore } from "../session-store.js";
import { toMessageView, type SessionEventType } from "./turn-types.js";
import type { MessageMeta, MessagePatch, MessageRecord, NewMessage } from "../store/types.js";

/** How many sessions' transcripts stay in memory (most recently used). */
const CACHED_SESSIONS = 16;

/**
 * Makes a person's announced message durable (the pending log), while its request is in flight.
 * Idempotent; throws `MessageNotSavedError` when it cannot be, and again on every later call.
 */
export type PersistMessage = () => void;

export { MessageNotSavedError };

export class Transcript {
  private readonly cache = new Map<string, MessageRecord[]>();
  /** Announced person's messages not in the store yet; every other write writes them first (order). */
  private readonly unwritten = new Map<string, AnnouncedMessage>();

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
   * from, but not yet stored: the turn sends its request first and makes it durable while the
   * request is in flight (`persist`, a line in the pending log). It is inserted into the store
   * before any other write, at the latest with the reply's first text (`appendReplyShowing`), so it
   * always keeps its place. Its search indexing waits for `settleUser`.
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
    const message = new AnnouncedMessage(record, input, {
      store: this.store,
      inserted: (stored) => {
        if (this.unwritten.get(sessionId) === message) this.unwritten.delete(sessionId);
        // Another client's write in between would have moved it: then correct what clients saw.
        if (stored.seq !== record.seq) {
          this.forget(sessionId);
          this.announce(stored);
        }
      },
      failed: (notSaved) => {
        if (this.unwritten.get(sessionId) === message) this.unwritten.delete(sessionId);
        this.forget(sessionId);
        // Clients already show it: they keep it, marked with why it is not saved.
        this.announce({ ...record, status: "error", meta: { ...record.meta, error: notSaved.message } });
      },
    });
    this.unwritten.set(sessionId, message);
    return { record, persist: () => message.log() };
  }

  /**
   * Writes every announced message still waiting: before any other write (to keep the order) and
   * before a read of the store that must show it.
   */
  writeUnwritten(): void {
    for (const message of [...this.unwritten.values()]) {
      try {
        message.insert();
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
   * A reply's row with its first text, shown as it is written: the store's write lock is taken
   * first, then clients are told of the reply and `show` shows its text, then the turn's person's
   * message (when still only logged) and the reply's row are written, in one commit. Why: no write
   * stands in front of the first token, yet a store another program holds fails before anything
   * is shown, and the person's message then is reported not saved, as it was never stored.
   */
  appendReplyShowing(input: NewMessage, show: (reply: MessageRecord) => void): MessageRecord {
    const store = this.store();
    const waiting = this.unwritten.get(input.sessionId);
    const known = this.cache.get(input.sessionId);
    const reply: MessageRecord = {
      id: randomUUID(),
      sessionId: input.sessionId,
      turnId: input.turnId ?? null,
      role: input.role,
      content: "",
      status: input.status ?? "complete",
      meta: (input.meta ?? {}) as MessageMeta,
      createdAt: this.clock.now(),
      seq: known ? (known.at(-1)?.seq ?? -1) + 1 : store.nextSeq(input.sessionId),
    };
    let shown = false;
    try {
      return store.transactionHoldingWriteLock(() => {
        this.announce(reply);
        shown = true;
        show(reply);
        this.writeUnwritten();
        const record = store.appendMessage(input, { id: reply.id, createdAt: reply.createdAt });
        this.keep(record);
        // A seq the cache got wrong would show here; then correct what clients saw.
        return record.seq === reply.seq ? record : this.announce(record);
      });
    } catch (error) {
      if (!shown && waiting && !waiting.settled) throw waiting.fail(error);
      // Its insert went with the failed commit: the next write inserts it (the log still holds it).
      if (waiting?.insertRolledBack()) this.unwritten.set(input.sessionId, waiting);
      throw error;
    }
  }

  /** A patch without `content` leaves the text as clients hold it: it is announced without it. */
  update(messageId: string, patch: MessagePatch): MessageRecord {
    this.writeUnwritten();
    const record = this.store().updateMessage(messageId, patch);
    const list = this.cache.get(record.sessionId);
    const index = list ? list.findLastIndex((m) => m.id === record.id) : -1;
    if (list && index >= 0) list[index] = record;
    else this.forget(record.sessionId);
    if (patch.content !== undefined) return this.announce(record);
    const { content: _held, ...message } = toMessageView(record);
    this.emit("session.message", record.sessionId, { message, sameContent: true });
    return record;
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

  /**
   * An update the store wrote late (a full disk refused it, store-handle.ts): the cached copy is
   * dropped and clients get the message as it now is.
   */
  writtenLate(record: MessageRecord): void {
    this.forget(record.sessionId);
    this.announce(record);
  }

  private announce(record: MessageRecord): MessageRecord {
    this.emit("session.message", record.sessionId, { message: toMessageView(record) });
    return record;
  }
}
