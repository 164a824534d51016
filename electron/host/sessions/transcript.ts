/**
 * Writes to a session's transcript and tells clients about it: every added, changed or removed
 * message is one `session.message` / `session.message.removed` event, so the UI never polls.
 */
import type { EventHub } from "../events.js";
import type { SessionStore } from "./session-store.js";
import { toMessageView, type SessionEventPayloads, type SessionEventType } from "./turn-types.js";
import type { MessagePatch, MessageRecord, NewMessage } from "./types.js";

export class Transcript {
  constructor(
    private readonly store: () => SessionStore,
    private readonly hub: EventHub,
  ) {}

  emit<T extends SessionEventType>(
    type: T,
    sessionId: string | null,
    payload: SessionEventPayloads[T],
  ): void {
    this.hub.emit(type, sessionId, payload);
  }

  append(input: NewMessage): MessageRecord {
    return this.announce(this.store().appendMessage(input));
  }

  update(messageId: string, patch: MessagePatch): MessageRecord {
    return this.announce(this.store().updateMessage(messageId, patch));
  }

  moveToEnd(messageId: string, patch: MessagePatch & { turnId?: string | null } = {}): MessageRecord {
    const { turnId, ...rest } = patch;
    const store = this.store();
    return this.announce(
      store.transaction(() => {
        const moved = store.moveMessageToEnd(messageId, turnId === undefined ? {} : { turnId });
        return Object.keys(rest).length ? store.updateMessage(moved.id, rest) : moved;
      }),
    );
  }

  remove(sessionId: string, messageIds: string[]): void {
    if (messageIds.length === 0) return;
    this.store().deleteMessages(messageIds);
    this.emit("session.message.removed", sessionId, { messageIds });
  }

  private announce(record: MessageRecord): MessageRecord {
    this.emit("session.message", record.sessionId, { message: toMessageView(record) });
    return record;
  }
}
