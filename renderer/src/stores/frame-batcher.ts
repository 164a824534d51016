/**
 * Collects streamed text per turn and hands it over once per animation frame, so a stream of
 * thousands of deltas a second costs one store update (and one render) per frame.
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

export class DeltaBatcher {
  private pending = new Map<string, string>();
  private cancel: (() => void) | null = null;

  constructor(
    private readonly apply: (deltas: ReadonlyMap<string, string>) => void,
    private readonly schedule: FrameScheduler = animationFrameScheduler,
  ) {}

  push(turnId: string, text: string): void {
    this.pending.set(turnId, (this.pending.get(turnId) ?? "") + text);
    this.cancel ??= this.schedule(() => {
      this.cancel = null;
      this.flush();
    });
  }

  /** Applies what is pending now; called before any event that must see the text in place. */
  flush(): void {
    this.cancel?.();
    this.cancel = null;
    if (this.pending.size === 0) return;
    const deltas = this.pending;
    this.pending = new Map();
    this.apply(deltas);
  }

  /** Drops pending text (the session was closed or reloaded from the host). */
  discard(): void {
    this.cancel?.();
    this.cancel = null;
    this.pending = new Map();
  }
}
