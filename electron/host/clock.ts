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
