/** One channel for every host → client event; transports subscribe and forward frames. */
import type { EventFrame } from "./rpc/frames.js";

export type EventListener = (frame: EventFrame) => void;

export class EventHub {
  private readonly listeners = new Set<EventListener>();

  emit(type: string, sessionId: string | null, payload: unknown): void {
    const frame: EventFrame = {
      jsonrpc: "2.0",
      method: "event",
      params: { type, session_id: sessionId, payload },
    };
    for (const listener of this.listeners) {
      try {
        listener(frame);
      } catch {
        // A broken connection must not stop delivery to the others; transports clean up themselves.
      }
    }
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
