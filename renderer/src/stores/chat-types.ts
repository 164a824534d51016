/**
 * The chat's data as the renderer sees it, derived from the contract so a host change shows up as
 * a type error here, plus readers for the session event payloads (events arrive untyped).
 */
import type { ResultOf } from "../../../electron/host/rpc/contract.js";
import type { HostEvent } from "../api/client.js";

export type ChatMessage = ResultOf<"session.messages">["messages"][number];
export type SessionListItem = ResultOf<"session.list">["sessions"][number];
export type SearchSnippet = NonNullable<SessionListItem["snippet"]>;
export type UsageRow = ResultOf<"session.usage">["rows"][number];
export type SendDisposition = ResultOf<"session.send">["disposition"];
export type BusyInputMode = "queue" | "steer" | "interrupt";

export const busyInputModes: readonly BusyInputMode[] = ["queue", "steer", "interrupt"];

/** The session events the chat reacts to, narrowed from a raw frame. */
export type ChatEvent =
  | { type: "session.turn.started"; sessionId: string; turnId: string }
  | { type: "session.turn.finished"; sessionId: string; turnId: string; status: string; error?: string }
  | { type: "session.delta"; sessionId: string; turnId: string; text: string }
  | { type: "session.message"; sessionId: string; message: ChatMessage }
  | { type: "session.message.removed"; sessionId: string; messageIds: string[] }
  | { type: "session.title"; sessionId: string; title: string }
  | { type: "sessions.changed" };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

/** Null for frames that are not chat events or are malformed (never throws on host input). */
export function readChatEvent(event: HostEvent): ChatEvent | null {
  if (event.type === "sessions.changed") return { type: "sessions.changed" };
  const sessionId = event.session_id;
  const p = event.payload;
  if (typeof sessionId !== "string" || !isRecord(p)) return null;
  switch (event.type) {
    case "session.delta":
      return typeof p.turnId === "string" && typeof p.text === "string"
        ? { type: event.type, sessionId, turnId: p.turnId, text: p.text }
        : null;
    case "session.turn.started":
      return typeof p.turnId === "string" ? { type: event.type, sessionId, turnId: p.turnId } : null;
    case "session.turn.finished":
      return typeof p.turnId === "string"
        ? {
            type: event.type,
            sessionId,
            turnId: p.turnId,
            status: String(p.status),
            ...(typeof p.error === "string" ? { error: p.error } : {}),
          }
        : null;
    case "session.message":
      return isRecord(p.message) && typeof p.message.id === "string"
        ? { type: event.type, sessionId, message: p.message as unknown as ChatMessage }
        : null;
    case "session.message.removed":
      return Array.isArray(p.messageIds)
        ? { type: event.type, sessionId, messageIds: p.messageIds.filter((id) => typeof id === "string") }
        : null;
    case "session.title":
      return typeof p.title === "string" ? { type: event.type, sessionId, title: p.title } : null;
    default:
      return null;
  }
}
