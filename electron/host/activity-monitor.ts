/**
 * Whether the app is idle (docs/contract.md §9.4): no person's input and no running turn. It listens to the
 * event hub, so the chat needs no hook of its own: a turn is running from `session.turn.started`
 * to `session.turn.finished`, and a person's input is a user message that no plugin sent.
 */
import type { Clock } from "./clock.js";
import type { EventHub } from "./events.js";
import { readHostEvent } from "./rpc/events.js";

export interface IdleActivity {
  /** Since when the app has been idle (epoch ms), or null while a turn runs. */
  idleSince(): number | null;
  /** Told whenever idleSince may have changed; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}

export class ActivityMonitor implements IdleActivity {
  private lastActivity: number;
  private readonly running = new Set<string>();
  private readonly listeners = new Set<() => void>();

  /** `lastActivity`: when a person last did something, if known (else now: the app just started). */
  constructor(
    private readonly clock: Clock,
    lastActivity?: number,
  ) {
    this.lastActivity = Math.min(lastActivity ?? clock.now(), clock.now());
  }

  /** Follows the chat through the event hub; returns the unsubscribe. */
  follow(events: EventHub): () => void {
    return events.subscribe((frame) => {
      const event = readHostEvent(frame.params);
      if (event?.type === "session.turn.started") this.turnStarted(event.payload.turnId);
      else if (event?.type === "session.turn.finished") this.turnFinished(event.payload.turnId);
      else if (event?.type === "session.message") {
        const { role, meta } = event.payload.message;
        const origin = typeof meta.origin === "string" ? meta.origin : "person";
        if (role === "user" && !origin.startsWith("plugin:")) this.personInput();
      }
    });
  }

  idleSince(): number | null {
    return this.running.size > 0 ? null : this.lastActivity;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  personInput(): void {
    this.lastActivity = this.clock.now();
    this.changed();
  }

  turnStarted(turnId: string): void {
    this.running.add(turnId);
    this.lastActivity = this.clock.now();
    this.changed();
  }

  turnFinished(turnId: string): void {
    this.running.delete(turnId);
    this.lastActivity = this.clock.now();
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // One listener's failure must not hide the change from the others.
      }
    }
  }
}
