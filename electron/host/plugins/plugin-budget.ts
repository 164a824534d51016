/**
 * Per-plugin daily counters (SPEC §5.4): model tokens (input and output) and calls into the
 * plugin, both reset at the next local midnight of the injected clock. A plugin whose tokens today
 * reached `plugins.entries.<id>.limits.daily_tokens` has its model calls refused with
 * PluginLlmBudgetError until then. A call that starts under the budget runs to its end; its
 * tokens count, and the next one is refused.
 */
import type { Clock } from "../clock.js";
import { PluginLlmBudgetError } from "./runtime/errors.js";

interface Day {
  key: string;
  tokens: number;
  calls: number;
}

/** The local calendar day of `ms`, e.g. "2026-11-29". */
export function localDayKey(ms: number): string {
  const date = new Date(ms);
  return `${date.getFullYear()}-${date.getMonth() + 1}-${date.getDate()}`;
}

export class PluginBudgets {
  private readonly days = new Map<string, Day>();

  constructor(
    private readonly clock: Clock,
    /** The plugin's `daily_tokens`, read at each use; undefined = no budget. */
    private readonly limitFor: (pluginId: string) => number | undefined,
  ) {}

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
    if (Number.isFinite(tokens) && tokens > 0) this.today(pluginId).tokens += tokens;
  }

  countCall(pluginId: string): void {
    this.today(pluginId).calls += 1;
  }

  private today(pluginId: string): Day {
    const key = localDayKey(this.clock.now());
    let day = this.days.get(pluginId);
    if (!day || day.key !== key) {
      day = { key, tokens: 0, calls: 0 };
      this.days.set(pluginId, day);
    }
    return day;
  }
}
