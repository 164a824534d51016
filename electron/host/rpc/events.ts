/**
 * The event table: every event the host pushes to its clients, with its payload type, declared
 * once. `EventHub.emit` is typed from it on the host side and the renderer's `HostEvent` union on
 * the other, so an event that isn't here can't be sent or received. Frames are
 * `{"jsonrpc":"2.0","method":"event","params":{"type","session_id","payload"}}`.
 */
import type {
  McpApprovalRequest,
  McpElicitationRequest,
  McpSamplingRequest,
  McpStatus,
} from "./methods/mcp.js";
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
  /** An MCP tool call of this session's turn waits for the person (docs/contract.md §13.3). */
  "mcp.approval_required": McpApprovalRequest;
  /** Where an MCP tool call stands: its card shows it (`requestId` = the call's id). */
  "mcp.tool.call": McpToolCallState;
  /** A server's progress notification for a running tool call. */
  "mcp.tool.progress": { requestId: string; progress: number; total?: number; message?: string };
}

/**
 * An MCP tool call's state for its card: `waiting_approval` until the person answers, `running`
 * while the server works, then one final state with a short `detail` (the error or denial).
 */
export interface McpToolCallState {
  requestId: string;
  server: string;
  tool: string;
  qualifiedName: string;
  state: "waiting_approval" | "running" | "done" | "error" | "denied" | "cancelled" | "timeout";
  detail?: string;
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
  /** An MCP server's status changed (docs/contract.md §13.2). */
  "mcp.status": { id: string; status: McpStatus; error?: string };
  /** Something `mcp.list` reports changed besides the status (tools, a saved block, secrets). */
  "mcp.changed": Empty;
  /** A server asks for a completion; answer with `mcp.sampling.respond` (§13.4). */
  "mcp.sampling_requested": McpSamplingRequest;
  /** A server asks the person for input; answer with `mcp.elicitation.respond` (§13.4). */
  "mcp.elicitation_requested": McpElicitationRequest;
  /**
   * A request left the pending list (answered here or elsewhere, timed out, denied by Stop or a
   * new message, or its server went away): close its card.
   */
  "mcp.request.closed": {
    requestId: string;
    kind: "approval" | "sampling" | "elicitation";
    outcome: "approved" | "denied" | "cancelled" | "timeout" | "answered";
  };
}

export type EventPayloads = SessionEventPayloads & AppEventPayloads;
export type EventName = keyof EventPayloads;
export type SessionEventName = keyof SessionEventPayloads;

/**
 * Which subscription topic (docs/contract.md §11 `events.subscribe`) an event belongs to: `session`
 * is `session:<its session id>`; `host` always arrives. A plugin's own events (`plugin.<id>.<event>`)
 * belong to `plugin:<id>`.
 */
export type EventTopicKind = "session" | "sessions" | "settings" | "mcp" | "host";

type EventEntry<E extends EventName> = E extends SessionEventName
  ? { scope: "session"; topic: "session"; doc: string }
  : { scope: "app"; topic: Exclude<EventTopicKind, "session">; doc: string };

/** What each event means and which topic carries it, for the router and the generated reference. */
export const eventTable: { readonly [E in EventName]: EventEntry<E> } = {
  "session.turn.started": {
    scope: "session",
    topic: "session",
    doc: "A turn began; `origin` is `person` or `plugin:<id>`.",
  },
  "session.title": { scope: "session", topic: "session", doc: "The session got a title." },
  "session.delta": {
    scope: "session",
    topic: "session",
    doc: "Streamed text of the reply the turn is writing.",
  },
  "session.turn.finished": {
    scope: "session",
    topic: "session",
    doc: "A turn ended: `ok`, `stopped` or `error` (with `error`).",
  },
  "session.message": {
    scope: "session",
    topic: "session",
    doc: "A transcript message was added or changed; with `sameContent: true` only its status or meta changed, and `content` is left out (keep the text you hold).",
  },
  "session.message.removed": {
    scope: "session",
    topic: "session",
    doc: "Transcript messages were removed (a regenerated reply).",
  },
  "sessions.changed": {
    scope: "app",
    topic: "sessions",
    doc: "The session list changed; re-read `session.list`.",
  },
  "settings.changed": {
    scope: "app",
    topic: "settings",
    doc: "config.yaml changed; re-read `settings.get` and what depends on it.",
  },
  "plugins.changed": {
    scope: "app",
    topic: "settings",
    doc: "A plugin loaded, failed or was switched; re-read `plugins.list`.",
  },
  "plugins.runtime": {
    scope: "app",
    topic: "settings",
    doc: "A plugin's counters for today moved (`{id, callsToday, tokensToday}`, the `runtime` fields of `plugins.list`); sent at once, then at most every 500 ms per plugin, the last count always.",
  },
  "host.changed": { scope: "app", topic: "host", doc: "What `host.info` reports changed; re-read it." },
  "mcp.approval_required": {
    scope: "session",
    topic: "session",
    doc: "An MCP tool call waits for approval (`{requestId, sessionId, server, tool, qualifiedName, description, arguments, annotations}`); answer with `mcp.approve`.",
  },
  "mcp.tool.call": {
    scope: "session",
    topic: "session",
    doc: "An MCP tool call's state for its card: `waiting_approval`, `running`, then `done`, `error`, `denied`, `cancelled` or `timeout` (with `detail`).",
  },
  "mcp.tool.progress": {
    scope: "session",
    topic: "session",
    doc: "Progress a server reported for a running tool call (`requestId` = the call's id, as its approval's).",
  },
  "mcp.status": {
    scope: "app",
    topic: "mcp",
    doc: "An MCP server's status changed (`disabled`, `starting`, `ready`, `error` with `error`).",
  },
  "mcp.changed": {
    scope: "app",
    topic: "mcp",
    doc: "What `mcp.list` reports changed (tools, a saved block, secrets); re-read it.",
  },
  "mcp.sampling_requested": {
    scope: "app",
    topic: "mcp",
    doc: "An MCP server asks for a completion on the `mcp` slot; answer with `mcp.sampling.respond` (`sessionId`: the session whose tool call led to it, or null).",
  },
  "mcp.elicitation_requested": {
    scope: "app",
    topic: "mcp",
    doc: "An MCP server asks the person for input (`mode: form` with `requestedSchema`, or `mode: url` with `url`); answer with `mcp.elicitation.respond`.",
  },
  "mcp.request.closed": {
    scope: "app",
    topic: "mcp",
    doc: "An approval, sampling or elicitation request is no longer pending (answered, timed out, denied by Stop); close its card.",
  },
  "plugin.consent_required": {
    scope: "app",
    topic: "settings",
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

/** `session:<id>`, `sessions`, `plugin:<id>`, `settings`, `mcp` or `host` (docs/contract.md §11). */
export const eventTopicPattern =
  "^(session:[A-Za-z0-9_-]{1,128}|plugin:[a-z0-9_-]{1,64}|sessions|settings|mcp|host)$";

/** The topic an event frame's params belong to, or null for a frame that is no event of ours. */
export function eventTopic(params: { type: string; session_id: string | null }): string | null {
  if (isEventName(params.type)) {
    const { topic } = eventTable[params.type];
    if (topic !== "session") return topic;
    return params.session_id === null ? null : `session:${params.session_id}`;
  }
  const plugin = /^plugin\.([a-z0-9_-]{1,64})\./.exec(params.type);
  return plugin ? `plugin:${plugin[1]}` : null;
}
