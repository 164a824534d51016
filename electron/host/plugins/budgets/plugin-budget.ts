/**
 * Per-plugin daily counters (docs/contract.md §5.4): model tokens (input and output) and calls into the
 * plugin, both reset at the next local midnight of the injected clock. A plugin whose tokens today
 * reached `plugins.entries.<id>.limits.daily_tokens` has its model calls refused with
 * PluginLlmBudgetError until then. A call that starts under the budget runs to its end; its
 * tokens count, and the next one is refused. With a `file`, the counters survive a restart
 * (budget-file.ts): tokens within a quarter second of the call that spent them (a burst of
 * calls is one write, off every call's path), counts of calls within a second, and everything on
 * `flush()` at close.
 */
import type { Clock } from "../../clock.js";
import { readBudgetFile, writeBudgetFile, type DayCount } from "./budget-file.js";
import { PluginLlmBudgetError } from "../runtime/errors.js";

const tokensWriteDelayMs = 250;
const callCountWriteDelayMs = 1000;

/** The local calendar day of `ms`, e.g. "2026-11-29". */
export function localDayKey(ms: number): string {
  const date = new Date(ms);
  return `${date.getFullYear()}-${date.getMonth() + 1}-${date.getDate()}`;
}

export class PluginBudgets {
  private readonly days: Map<string, DayCount>;
  /** Today's key and the local day it covers: every call into a plugin counts, and a local date costs a time-zone lookup. */
  private currentDay: { key: string; from: number; until: number } | null = null;
  private pendingWrite: { timer: ReturnType<typeof setTimeout>; dueAt: number } | null = null;
  private readonly countListeners = new Set<(pluginId: string) => void>();

  constructor(
    private readonly clock: Clock,
    /** The plugin's `daily_tokens`, read at each use; undefined = no budget. */
    private readonly limitFor: (pluginId: string) => number | undefined,
    /** Where the counters are kept between runs; none = in memory only. */
    private readonly file?: string,
  ) {
    this.days = file ? readBudgetFile(file) : new Map();
  }

  tokensToday(pluginId: string): number {
    return this.today(pluginId).tokens;
  }

  callsToday(pluginId: string): number {
    return this.today(pluginId).calls;
  }

  /** Throws PluginLlmBudgetError when the plugin's budget for today is spent. */
  check(pluginId: string): void {
    const limit = this.limitFor(pluginId);
    if (limit === undefined) return;
    const used = this.today(pluginId).tokens;
    if (used >= limit) {
      throw new PluginLlmBudgetError(
        `Plugin '${pluginId}' spent its daily budget of ${limit} tokens (${used} used today); it resets at local midnight, or raise plugins.entries.${pluginId}.limits.daily_tokens.`,
      );
    }
  }

  spend(pluginId: string, tokens: number): void {
    if (!Number.isFinite(tokens) || tokens <= 0) return;
    this.today(pluginId).tokens += Math.round(tokens);
    this.scheduleWrite(tokensWriteDelayMs);
    this.counted(pluginId);
  }

  countCall(pluginId: string): void {
    this.today(pluginId).calls += 1;
    this.scheduleWrite(callCountWriteDelayMs);
    this.counted(pluginId);
  }

  /** Told after each count (the Plugins page's live "Today" figures); returns the function that stops it. */
  onCounted(listener: (pluginId: string) => void): () => void {
    this.countListeners.add(listener);
    return () => this.countListeners.delete(listener);
  }

  private counted(pluginId: string): void {
    for (const listener of this.countListeners) {
      try {
        listener(pluginId);
      } catch {
        // A listener's failure must not fail the count.
      }
    }
  }

  /** Writes the counters now (at close). */
  flush(): void {
    if (this.pendingWrite) clearTimeout(this.pendingWrite.timer);
    this.pendingWrite = null;
    if (!this.file) return;
    try {
      writeBudgetFile(this.file, this.days);
    } catch (error) {
      console.error(`Saving plugin counters to ${this.file} failed: ${(error as Error).message}`);
    }
  }

  /** `localDayKey(now)`, worked out again only when `now` leaves the local day it was worked out for. */
  private dayKeyNow(): string {
    const now = this.clock.now();
    const day = this.currentDay;
    if (day && now >= day.from && now < day.until) return day.key;
    const date = new Date(now);
    const [year, month, dayOfMonth] = [date.getFullYear(), date.getMonth(), date.getDate()];
    // The Date constructor lands on a day's first local instant even where DST skips midnight.
    this.currentDay = {
      key: localDayKey(now),
      from: new Date(year, month, dayOfMonth).getTime(),
      until: new Date(year, month, dayOfMonth + 1).getTime(),
    };
    return this.currentDay.key;
  }

  private scheduleWrite(delayMs: number): void {
    if (!this.file) return;
    const dueAt = Date.now() + delayMs;
    if (this.pendingWrite && this.pendingWrite.dueAt <= dueAt) return;
    if (this.pendingWrite) clearTimeout(this.pendingWrite.timer);
    const timer = setTimeout(() => this.flush(), delayMs);
    timer.unref();
    this.pendingWrite = { timer, dueAt };
  }

  private today(pluginId: string): DayCount {
    const key = this.dayKeyNow();
    let day = this.days.get(pluginId);
    if (!day || day.day !== key) {
      day = { day: key, tokens: 0, calls: 0 };
      this.days.set(pluginId, day);
    }
    return day;
  }
}
