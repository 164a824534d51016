/**
 * `ctx.emitToSession(sessionId, event, payload)` (SPEC §8): a plugin's event for one session,
 * delivered to the clients as `plugin.<plugin id>.<event>`. The event is dot-separated segments of
 * `[A-Za-z0-9_-]`, at most 128 characters; the payload is a JSON object. The worker checks the
 * same rules so the plugin gets the error where it called; the host checks again.
 */
import type { EventHub } from "../../events.js";
import type { PluginEventType } from "../../rpc/events.js";

export const MAX_EVENT_CHARS = 128;
/** Bounds what one event carries to every client (a plugin page's state, not a file). */
export const MAX_PAYLOAD_BYTES = 256 * 1024;
const eventPattern = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** A call of `ctx.emitToSession` with arguments it cannot deliver; the message says what to fix. */
export class PluginEventError extends Error {
  override readonly name = "PluginEventError";
}

export interface SessionEvent {
  sessionId: string;
  event: string;
  payload: Record<string, unknown>;
}

/** The checked arguments, or a PluginEventError naming the first problem. */
export function checkSessionEvent(sessionId: unknown, event: unknown, payload: unknown): SessionEvent {
  if (typeof sessionId !== "string" || sessionId === "") {
    throw new PluginEventError(
      "ctx.emitToSession: sessionId must be the id of a session, a non-empty string.",
    );
  }
  if (typeof event !== "string" || event.length > MAX_EVENT_CHARS || !eventPattern.test(event)) {
    throw new PluginEventError(
      `ctx.emitToSession: event must be dot-separated segments of letters, digits, "_" or "-", at most ${MAX_EVENT_CHARS} characters (got ${JSON.stringify(String(event)).slice(0, 80)}).`,
    );
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    throw new PluginEventError('ctx.emitToSession: payload must be an object such as {text: "…"}.');
  }
  let json: string;
  try {
    json = JSON.stringify(payload);
  } catch {
    throw new PluginEventError("ctx.emitToSession: payload must be plain JSON data.");
  }
  if (json.length > MAX_PAYLOAD_BYTES) {
    throw new PluginEventError(
      `ctx.emitToSession: payload is ${json.length} bytes as JSON; keep it under ${MAX_PAYLOAD_BYTES}.`,
    );
  }
  return { sessionId, event, payload: JSON.parse(json) as Record<string, unknown> };
}

export const pluginEventType = (pluginId: string, event: string): PluginEventType =>
  `plugin.${pluginId}.${event}`;

/** Emits one plugin's session events on the host's event hub. */
export function sessionEmitter(hub: Pick<EventHub, "emitPluginEvent">, pluginId: string) {
  return (sessionId: unknown, event: unknown, payload: unknown): void => {
    const checked = checkSessionEvent(sessionId, event, payload);
    hub.emitPluginEvent(pluginEventType(pluginId, checked.event), checked.sessionId, checked.payload);
  };
}
