/** Time source injected everywhere time matters, so tests can move time without sleeping. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export interface TimerHandle {
  readonly id: unknown;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return { id: t };
  },
  clearTimeout: (handle) => clearTimeout(handle.id as NodeJS.Timeout),
};

/** A clock that only moves when told to: `advance(ms)` fires due timers in order. */
export class ManualClock implements Clock {
  private current: number;
  private timers: { at: number; seq: number; fn: () => void; handle: TimerHandle }[] = [];
  private seq = 0;

  constructor(start = Date.UTC(2026, 10, 29, 12, 0, 0)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const handle: TimerHandle = { id: ++this.seq };
    this.timers.push({ at: this.current + Math.max(0, ms), seq: this.seq, fn, handle });
    return handle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.handle !== handle);
  }

  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers[0];
      if (!next || next.at > target) break;
      this.timers.shift();
      this.current = next.at;
      next.fn();
    }
    this.current = target;
  }
}
