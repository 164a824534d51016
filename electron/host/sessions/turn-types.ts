/**
 * The vocabulary of turns (SPEC §9.1, §9.2, §11): who started one, how it ended, how a person's
 * message entered a busy session, and the event payloads clients receive.
 */
import type { MessageView } from "../rpc/methods/sessions.js";
import type { MessageDisposition, MessageRecord } from "./types.js";

/** A person at the chat, or a plugin's injected message (SPEC §9.3). */
export type TurnOrigin = "person" | `plugin:${string}`;

export type TurnStatus = "ok" | "stopped" | "error";

/** `session.send`'s `mode`; absent = `display.busy_input_mode`. */
export type BusyInputMode = "queue" | "steer" | "interrupt";

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

/** Event names and payloads, exactly as SPEC §11 lists them, plus the app's own. */
export interface SessionEventPayloads {
  "session.turn.started": { turnId: string; origin: TurnOrigin };
  "session.title": { title: string };
  "session.delta": { turnId: string; text: string };
  "session.turn.finished": { turnId: string; status: TurnStatus; error?: string };
  /** A message was added or changed (its content is final for that moment). */
  "session.message": { message: MessageView };
  /** Messages left the transcript (a regenerated reply). */
  "session.message.removed": { messageIds: string[] };
  /** The session list changed: created, renamed, deleted, or moved to the top. */
  "sessions.changed": Record<string, never>;
}

export type SessionEventType = keyof SessionEventPayloads;

export type { MessageView } from "../rpc/methods/sessions.js";

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
