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

export class Transcript {
  private readonly cache = new Map<string, MessageRecord[]>();

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
    return this.remember(sessionId, this.store().listMessages(sessionId));
  }

  private remember(sessionId: string, list: MessageRecord[]): MessageRecord[] {
    this.cache.set(sessionId, list);
    if (this.cache.size > CACHED_SESSIONS) this.cache.delete(this.cache.keys().next().value as string);
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
    return this.added(this.store().appendMessage(input));
  }

  /**
   * A person's message that starts a turn: on disk before this returns (a crash cannot lose it),
   * with its search indexing deferred until `settleUser` so the write stays off the path to the
   * first token.
   */
  appendUserIndexLater(input: NewMessage & { role: "user" }): MessageRecord {
    return this.added(this.store().appendUserMessageIndexLater(input));
  }

  /** Makes a message of `appendUserIndexLater` searchable; a no-op once done. */
  settleUser(messageId: string): void {
    this.store().settleUserMessage(messageId);
  }

  /**
   * Announces a new message, runs `beforeWrite` (the first streamed text reaches clients), then
   * stores it with the announced identity in one transaction with `alsoWrite`. Why: clients need the
   * reply before its first delta, but the write need not delay that delta; both happen in one tick.
   */
  appendAnnouncedFirst(
    input: NewMessage,
    beforeWrite: () => void,
    alsoWrite: () => void = () => undefined,
  ): MessageRecord {
    const store = this.store();
    const keep = { id: randomUUID(), createdAt: this.clock.now() };
    const known = this.cache.get(input.sessionId);
    const seq = known ? (known.at(-1)?.seq ?? -1) + 1 : store.nextSeq(input.sessionId);
    this.emit("session.message", input.sessionId, {
      message: {
        id: keep.id,
        role: input.role,
        content: input.content ?? "",
        createdAt: keep.createdAt,
        status: input.status ?? "complete",
        turnId: input.turnId ?? null,
        seq,
        meta: (input.meta ?? {}) as MessageMeta,
      },
    });
    beforeWrite();
    const record = store.transaction(() => {
      alsoWrite();
      return store.appendMessage(input, keep);
    });
    this.keep(record);
    // A seq the cache got wrong would show here; then correct what clients saw.
    return record.seq === seq ? record : this.announce(record);
  }

  update(messageId: string, patch: MessagePatch): MessageRecord {
    const record = this.store().updateMessage(messageId, patch);
    const list = this.cache.get(record.sessionId);
    const index = list ? list.findLastIndex((m) => m.id === record.id) : -1;
    if (list && index >= 0) list[index] = record;
    else this.forget(record.sessionId);
    return this.announce(record);
  }

  moveToEnd(messageId: string, patch: MessagePatch & { turnId?: string | null } = {}): MessageRecord {
    const { turnId, ...rest } = patch;
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
