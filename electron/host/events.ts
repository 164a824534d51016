/** One channel for every host → client event; transports subscribe and forward frames. */
import type { EventName, EventPayloads, SessionEventName } from "./rpc/events.js";
import type { EventFrame } from "./rpc/frames.js";
import { pluginEventType } from "./rpc/plugin-names.js";

export type EventListener = (frame: EventFrame) => void;

export class EventHub {
  private readonly listeners = new Set<EventListener>();

  /** Typed by the event table: a session event names its session, an app-wide one passes null. */
  emit<E extends EventName>(
    type: E,
    sessionId: E extends SessionEventName ? string : null,
    payload: EventPayloads[E],
  ): void {
    this.send({ jsonrpc: "2.0", method: "event", params: { type, session_id: sessionId, payload } });
  }

  private send(frame: EventFrame): void {
    for (const listener of this.listeners) {
      try {
        listener(frame);
      } catch {
        // A broken connection must not stop delivery to the others; transports clean up themselves.
      }
    }
  }

  /**
   * A plugin's session event (docs/contract.md §8 `ctx.emitToSession`), type `plugin.<id>.<event>`; the caller
   * validated the names and the payload.
   */
  emitPlugin(pluginId: string, event: string, sessionId: string, payload: Record<string, unknown>): void {
    this.send({
      jsonrpc: "2.0",
      method: "event",
      params: { type: pluginEventType(pluginId, event), session_id: sessionId, payload },
    });
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
