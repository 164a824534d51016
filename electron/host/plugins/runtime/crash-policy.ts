/**
 * When a crashed plugin comes back (docs/contract.md §5.4): restarted alone with a growing delay, and after
 * 3 crashes within 5 minutes left stopped until the user restarts it.
 */
export const CRASH_WINDOW_MS = 5 * 60_000;
export const MAX_CRASHES = 3;

export type CrashDecision = { action: "restart"; delayMs: number } | { action: "stop" };

export class CrashHistory {
  private times: number[] = [];

  constructor(private readonly baseDelayMs = 1_000) {}

  /** Records a crash at `now` and says what to do. */
  record(now: number): CrashDecision {
    this.times = [...this.times.filter((t) => now - t < CRASH_WINDOW_MS), now];
    if (this.times.length >= MAX_CRASHES) return { action: "stop" };
    return { action: "restart", delayMs: Math.min(30_000, this.baseDelayMs * 2 ** (this.times.length - 1)) };
  }

  reset(): void {
    this.times = [];
  }
}
