/**
 * Live "Today" figures on the Plugins page (docs/contract.md §5.4): each call into a plugin and each model
 * token it spends is counted in PluginBudgets; this turns those counts into `plugins.runtime`
 * events. A busy plugin counts many times a second, so one plugin's event goes out at once and
 * then at most once per interval (the last count always goes out, never dropped).
 */
import type { Clock, TimerHandle } from "../../clock.js";

export const RUNTIME_EVENT_INTERVAL_MS = 500;

export class RuntimeCounterEvents {
  private readonly lastSentAt = new Map<string, number>();
  private readonly pending = new Map<string, TimerHandle>();

  constructor(
    private readonly clock: Clock,
    /** Sends the plugin's counters as they are when called. */
    private readonly send: (pluginId: string) => void,
    private readonly intervalMs = RUNTIME_EVENT_INTERVAL_MS,
  ) {}

  /** A counter of `pluginId` moved. */
  counted(pluginId: string): void {
    if (this.pending.has(pluginId)) return; // the scheduled event will carry this count too
    const last = this.lastSentAt.get(pluginId);
    const wait = last === undefined ? 0 : last + this.intervalMs - this.clock.now();
    if (wait <= 0) {
      this.sendNow(pluginId);
      return;
    }
    const timer = this.clock.setTimeout(() => {
      this.pending.delete(pluginId);
      this.sendNow(pluginId);
    }, wait);
    this.pending.set(pluginId, timer);
  }

  close(): void {
    for (const timer of this.pending.values()) this.clock.clearTimeout(timer);
    this.pending.clear();
  }

  private sendNow(pluginId: string): void {
    this.lastSentAt.set(pluginId, this.clock.now());
    try {
      this.send(pluginId);
    } catch {
      // A failed send must not break the call that counted.
    }
  }
}
