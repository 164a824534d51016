/**
 * The vocabulary of turns (docs/contract.md §9.1, §9.2, §11): who started one, how it ended, how a person's
 * message entered a busy session, and the event payloads clients receive.
 */
import type { EventPayloads, SessionEventName } from "../../rpc/events.js";
import type { MessageDisposition, MessageRecord } from "../store/types.js";

export type { TurnOrigin, TurnStatus } from "../../rpc/events.js";

/** `session.send`'s `mode`; absent = `display.busy_input_mode`. */
export type { BusyInputMode } from "../../config/config-schema.js";

export type SendDisposition = MessageDisposition;

/** `command`: the text ran a plugin's slash command, so no chat turn started (its reply is a message). */
export type SendResult = { turnId: string; disposition: SendDisposition; command?: string };

/**
 * The abort reason when the host shuts down mid-turn: the partial reply is kept as `interrupted`
 * (as after a crash), not `stopped`, because the person did not stop it.
 */
export class HostShutdownAbort extends Error {
  override readonly name = "HostShutdownAbort";
  constructor() {
    super("Hermes Desktop was closing; the reply so far is kept. Send a message to continue.");
  }
}

/** The events a transcript sends: the session events of the event table, plus the session list's. */
export type SessionEventPayloads = Pick<EventPayloads, SessionEventName | "sessions.changed">;
export type SessionEventType = keyof SessionEventPayloads;

import type { MessageView } from "../../rpc/methods/sessions.js";
export type { MessageView };

export function toMessageView(record: MessageRecord): MessageView {
  return {
    id: record.id,
    role: record.role,
    content: record.content,
    createdAt: record.createdAt,
    status: record.status,
    turnId: record.turnId,
    seq: record.seq,
    meta: record.meta,
  };
}
