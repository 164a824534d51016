// Small statistics helpers for the benchmarks.
export const median = (xs) => percentile(xs, 50);
export function percentile(xs, p) {
  const sorted = [...xs].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}
export const ms = (x) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;

/**
 * Times `a` and `b` (async functions) `calls` times each, interleaved after `warmup` rounds of
 * both, alternating which goes first so neither side always runs on a just-warmed socket.
 * Returns the per-call times in ms of each side.
 */
export async function interleaved(a, b, calls, warmup = 30) {
  const time = async (fn) => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const aTimes = [];
  const bTimes = [];
  for (let i = 0; i < calls; i++) {
    if (i % 2 === 0) {
      aTimes.push(await time(a));
      bTimes.push(await time(b));
    } else {
      bTimes.push(await time(b));
      aTimes.push(await time(a));
    }
  }
  return { a: aTimes, b: bTimes };
}
