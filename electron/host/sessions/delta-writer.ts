/**
 * Streamed text reaches clients at once (`session.delta` per chunk) but reaches the disk in
 * batches: one store write per ~100 ms, so a fast stream costs a handful of row updates a second
 * and a crash loses at most the last batch.
 */
import type { Clock, TimerHandle } from "../clock.js";

export const DELTA_FLUSH_INTERVAL_MS = 100;

export class DeltaWriter {
  private buffer = "";
  private timer: TimerHandle | null = null;
  private failure: unknown = null;

  constructor(
    private readonly write: (text: string) => void,
    private readonly clock: Clock,
    private readonly intervalMs = DELTA_FLUSH_INTERVAL_MS,
  ) {}

  push(text: string): void {
    this.buffer += text;
    this.timer ??= this.clock.setTimeout(() => this.flushQuietly(), this.intervalMs);
  }

  /** Writes what is buffered; rethrows a failure a timed flush hit, so the turn can report it. */
  flush(): void {
    this.cancelTimer();
    if (this.failure !== null) throw this.failure;
    if (!this.buffer) return;
    const text = this.buffer;
    this.buffer = "";
    this.write(text);
  }

  /** Drops the timer without writing (the caller writes the full text itself). */
  dispose(): void {
    this.cancelTimer();
    this.buffer = "";
  }

  private flushQuietly(): void {
    this.timer = null;
    try {
      this.flush();
    } catch (error) {
      this.failure = error;
    }
  }

  private cancelTimer(): void {
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
