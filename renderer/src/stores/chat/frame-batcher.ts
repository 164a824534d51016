/**
 * Collects streamed text per turn and hands it over in paced updates, so a stream of thousands of
 * deltas a second costs a few store updates (and renders) a second, not one per delta.
 *
 * Pacing: the first text after a pause is shown at the next frame; while text keeps coming, an
 * update waits until `minUpdateIntervalMs` has passed since the last one (every other frame at
 * 60 Hz). Why: most of what a streamed update costs the page is per frame, not per character (a
 * render, style, layout, paint and the compositor's frame, whatever the amount of new text), so
 * updating every other frame halves that work while the text still moves 30 times a second.
 */

/** Schedules `flush` before the next paint; returns a cancel function. */
export type FrameScheduler = (flush: () => void) => () => void;

export const animationFrameScheduler: FrameScheduler = (flush) => {
  if (typeof requestAnimationFrame !== "function") {
    const timer = setTimeout(flush, 16);
    return () => clearTimeout(timer);
  }
  const handle = requestAnimationFrame(flush);
  return () => cancelAnimationFrame(handle);
};

/**
 * Least time between two updates while text keeps coming: two 60 Hz frames, less the jitter of
 * when a frame's callbacks run (so the second frame after an update is never skipped).
 */
export const minUpdateIntervalMs = 30;

export interface DeltaBatcherOptions {
  schedule?: FrameScheduler;
  /** The clock the pacing reads (the page's `performance.now` by default). */
  now?: () => number;
}

export class DeltaBatcher {
  private pending = new Map<string, string>();
  private cancel: (() => void) | null = null;
  private lastUpdateAt = Number.NEGATIVE_INFINITY;
  private readonly schedule: FrameScheduler;
  private readonly now: () => number;

  constructor(
    private readonly apply: (deltas: ReadonlyMap<string, string>) => void,
    options: DeltaBatcherOptions = {},
  ) {
    this.schedule = options.schedule ?? animationFrameScheduler;
    this.now = options.now ?? (() => performance.now());
  }

  push(turnId: string, text: string): void {
    this.pending.set(turnId, (this.pending.get(turnId) ?? "") + text);
    this.cancel ??= this.nextFrame();
  }

  /** Applies what is pending now; called before any event that must see the text in place. */
  flush(): void {
    this.cancel?.();
    this.cancel = null;
    if (this.pending.size === 0) return;
    const deltas = this.pending;
    this.pending = new Map();
    this.lastUpdateAt = this.now();
    this.apply(deltas);
  }

  /** Drops pending text (the session was closed or reloaded from the host). */
  discard(): void {
    this.cancel?.();
    this.cancel = null;
    this.pending = new Map();
  }

  private nextFrame(): () => void {
    return this.schedule(() => {
      this.cancel = null;
      if (this.now() - this.lastUpdateAt < minUpdateIntervalMs) this.cancel = this.nextFrame();
      else this.flush();
    });
  }
}
