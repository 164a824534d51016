/**
 * The event table: every event the host pushes to its clients, with its payload type, declared
 * once. `EventHub.emit` is typed from it on the host side and the renderer's `HostEvent` union on
 * the other, so an event that isn't here can't be sent or received. Frames are
 * `{"jsonrpc":"2.0","method":"event","params":{"type","session_id","payload"}}`.
 */
import type { MessageView } from "./methods/sessions.js";

/** Who started a turn: a person at the chat, or a plugin's injected message. */
export type TurnOrigin = "person" | `plugin:${string}`;
export type TurnStatus = "ok" | "stopped" | "error";
type Empty = Record<string, never>;

/** Events about one session: their frames carry its id in `session_id`. */
export interface SessionEventPayloads {
  "session.turn.started": { turnId: string; origin: TurnOrigin };
  "session.title": { title: string };
  "session.delta": { turnId: string; text: string };
  "session.turn.finished": { turnId: string; status: TurnStatus; error?: string };
  /**
   * A message was added or changed (its content is final for that moment). When only its status
   * or meta changed, as when a streamed reply ends, its text is left out (`sameContent`): clients
   * keep the text they hold, which for a streamed reply is every `session.delta` (a long reply's
   * text would otherwise cross the boundary a second time, in one message).
   */
  "session.message": { message: MessageView } | { message: Omit<MessageView, "content">; sameContent: true };
  /** Messages left the transcript (a regenerated reply). */
  "session.message.removed": { messageIds: string[] };
}

/** App-wide events: `session_id` is null. Each tells clients to re-read something. */
export interface AppEventPayloads {
  /** The session list changed: created, renamed, deleted, or moved to the top. */
  "sessions.changed": Empty;
  /** config.yaml changed (through the app or by hand). */
  "settings.changed": Empty;
  /** A plugin finished loading, failed, or was enabled or disabled. */
  "plugins.changed": Empty;
  /** A plugin's counters for today moved (docs/contract.md §5.4); at most every half second per plugin. */
  "plugins.runtime": { id: string; callsToday: number; tokensToday: number };
  /** Something `host.info` reports changed (e.g. the keychain turned out to be unavailable). */
  "host.changed": Empty;
  /** An enabled plugin declares capabilities the user has not answered for (docs/contract.md §7.2). */
  "plugin.consent_required": { id: string; pendingCapabilities: string[] };
}

export type EventPayloads = SessionEventPayloads & AppEventPayloads;
export type EventName = keyof EventPayloads;
export type SessionEventName = keyof SessionEventPayloads;

/** What each event means, for the generated reference (docs/rpc-reference.md). */
export const eventTable: {
  readonly [E in EventName]: { scope: E extends SessionEventName ? "session" : "app"; doc: string };
} = {
  "session.turn.started": { scope: "session", doc: "A turn began; `origin` is `person` or `plugin:<id>`." },
  "session.title": { scope: "session", doc: "The session got a title." },
  "session.delta": { scope: "session", doc: "Streamed text of the reply the turn is writing." },
  "session.turn.finished": {
    scope: "session",
    doc: "A turn ended: `ok`, `stopped` or `error` (with `error`).",
  },
  "session.message": {
    scope: "session",
    doc: "A transcript message was added or changed; with `sameContent: true` only its status or meta changed, and `content` is left out (keep the text you hold).",
  },
  "session.message.removed": {
    scope: "session",
    doc: "Transcript messages were removed (a regenerated reply).",
  },
  "sessions.changed": { scope: "app", doc: "The session list changed; re-read `session.list`." },
  "settings.changed": {
    scope: "app",
    doc: "config.yaml changed; re-read `settings.get` and what depends on it.",
  },
  "plugins.changed": {
    scope: "app",
    doc: "A plugin loaded, failed or was switched; re-read `plugins.list`.",
  },
  "plugins.runtime": {
    scope: "app",
    doc: "A plugin's counters for today moved (`{id, callsToday, tokensToday}`, the `runtime` fields of `plugins.list`); sent at once, then at most every 500 ms per plugin, the last count always.",
  },
  "host.changed": { scope: "app", doc: "What `host.info` reports changed; re-read it." },
  "plugin.consent_required": {
    scope: "app",
    doc: "An enabled plugin declares capabilities awaiting consent (`{id, pendingCapabilities}`); show its consent screen and answer with `plugins.consent`.",
  },
};

export const eventNames = Object.keys(eventTable) as EventName[];

/** The `params` of an event frame, one member per event: `type` narrows `payload`. */
export type HostEvent = {
  [E in EventName]: {
    type: E;
    session_id: E extends SessionEventName ? string : null;
    payload: EventPayloads[E];
  };
}[EventName];

export const isEventName = (name: unknown): name is EventName =>
  typeof name === "string" && Object.prototype.hasOwnProperty.call(eventTable, name);

/** An event frame's params when its type is one of the table's; anything else is not an event. */
export function readHostEvent(params: unknown): HostEvent | null {
  if (typeof params !== "object" || params === null) return null;
  const { type, session_id: sessionId } = params as { type?: unknown; session_id?: unknown };
  if (!isEventName(type)) return null;
  const scoped = eventTable[type].scope === "session";
  return (scoped ? typeof sessionId === "string" : sessionId === null) ? (params as HostEvent) : null;
}
