// Small statistics helpers for the benchmarks.
export const median = (xs) => percentile(xs, 50);
export function percentile(xs, p) {
  const sorted = [...xs].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}
export const ms = (x) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;

/**
 * Takes `calls` samples of each of `a` and `b` (async functions that resolve to their own time in
 * ms, e.g. one measured inside a worker), interleaved after `warmup` rounds of both, alternating
 * which goes first so neither side always runs on a just-warmed socket.
 */
export async function interleavedSamples(a, b, calls, warmup = 30) {
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const aTimes = [];
  const bTimes = [];
  for (let i = 0; i < calls; i++) {
    if (i % 2 === 0) {
      aTimes.push(await a());
      bTimes.push(await b());
    } else {
      bTimes.push(await b());
      aTimes.push(await a());
    }
  }
  return { a: aTimes, b: bTimes };
}

/** `fn`, resolving to how long it took in ms. */
export const timed = (fn) => async () => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};

/** Times `a` and `b` (async functions) with `interleavedSamples`; returns each side's times in ms. */
export const interleaved = (a, b, calls, warmup = 30) =>
  interleavedSamples(timed(a), timed(b), calls, warmup);
