/** One channel for every host → client event; transports subscribe and forward frames. */
import { eventTopic, type EventName, type EventPayloads, type SessionEventName } from "./rpc/events.js";
import type { EventFrame } from "./rpc/frames.js";
import { pluginEventType } from "./rpc/plugin-names.js";

export type EventListener = (frame: EventFrame) => void;

export class EventHub {
  private readonly listeners = new Set<EventListener>();
  /** Per connection, the topics it asked for (docs/contract.md §11); absent = every event. */
  private readonly topics = new Map<string, ReadonlySet<string>>();

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

  /**
   * Every frame, or — with a connection id — the frames that connection's topics take (all of them
   * until it calls `events.subscribe`). The unsubscribe also forgets the connection's topics.
   */
  subscribe(listener: EventListener, connectionId?: string): () => void {
    const deliver: EventListener =
      connectionId === undefined ? listener : (frame) => this.wants(connectionId, frame) && listener(frame);
    this.listeners.add(deliver);
    return () => {
      this.listeners.delete(deliver);
      if (connectionId !== undefined) this.topics.delete(connectionId);
    };
  }

  /** How many listeners are subscribed (a soak counts them: each connection's goes when it closes). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  /** `events.subscribe {topics}`: from now on only these topics (and `host`), replacing the last set. */
  setTopics(connectionId: string, topics: readonly string[]): void {
    this.topics.set(connectionId, new Set(topics));
  }

  /** Whether a frame goes to this connection under the topics it subscribed to. */
  wants(connectionId: string, frame: EventFrame): boolean {
    const topics = this.topics.get(connectionId);
    if (!topics) return true;
    const topic = eventTopic(frame.params);
    return topic === "host" || (topic !== null && topics.has(topic));
  }
}
