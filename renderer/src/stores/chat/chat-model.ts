/**
 * The chat's data as the renderer sees it, derived from the contract so a host change shows up as
 * a type error here.
 */
import type { ResultOf } from "../../../../electron/host/rpc/contract.js";
import type { EventPayloads, SessionEventName } from "../../../../electron/host/rpc/events.js";
import type { HostEvent } from "../../api/client.js";

export type ChatMessage = ResultOf<"session.messages">["messages"][number];
export type SessionListItem = ResultOf<"session.list">["sessions"][number];
export type SearchSnippet = NonNullable<SessionListItem["snippet"]>;
export type UsageRow = ResultOf<"session.usage">["rows"][number];
export type SendDisposition = ResultOf<"session.send">["disposition"];
export type { BusyInputMode } from "../../../../electron/host/rpc/methods/settings.js";

/** The session events the chat reacts to, with the session's id beside the payload's fields. */
export type ChatEvent =
  | { [E in SessionEventName]: { type: E; sessionId: string } & EventPayloads[E] }[SessionEventName]
  | { type: "sessions.changed" };

/** Null for app-wide events other than `sessions.changed`; the types come from the event table. */
export function toChatEvent(event: HostEvent): ChatEvent | null {
  if (event.type === "sessions.changed") return { type: event.type };
  if (event.session_id === null) return null;
  return { type: event.type, sessionId: event.session_id, ...event.payload } as ChatEvent;
}
