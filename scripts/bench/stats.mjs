// Small statistics helpers for the benchmarks.
export const median = (xs) => percentile(xs, 50);
export function percentile(xs, p) {
  const sorted = [...xs].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}
/**
 * The p-th percentile of times read from a clock that steps by `step` ms, as grouped data: each
 * reading stands for the interval `step` wide around it, and the rank is interpolated within the
 * interval it falls in. Why: a page's `performance.now()` steps by 0.1 ms (Chromium coarsens it
 * with a jittered edge: a time between two steps reads as either, in proportion to how close it
 * is), so the plain percentile of sub-millisecond round trips is one of a few steps: 0.5 vs 0.6 ms
 * is 20% of the figure. Falls back to the plain percentile for readings off the grid.
 */
export function steppedPercentile(xs, p, step) {
  if (xs.length === 0) return Number.NaN;
  const steps = xs.map((x) => Math.round(x / step));
  if (xs.some((x, i) => Math.abs(x - steps[i] * step) > step / 1000)) return percentile(xs, p);
  const counts = new Map();
  for (const k of steps) counts.set(k, (counts.get(k) ?? 0) + 1);
  const rank = (p / 100) * xs.length;
  let below = 0;
  for (const k of [...counts.keys()].sort((a, b) => a - b)) {
    const count = counts.get(k);
    if (below + count >= rank) return Math.max(0, (k - 0.5 + (rank - below) / count) * step);
    below += count;
  }
  return Math.max(...xs);
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

/**
 * `calls` samples of each of `fns` (async functions resolving to their own time in ms), interleaved
 * after `warmup` rounds of all, each round starting one further along, so none always runs first.
 */
export async function rotatedSamples(fns, calls, warmup = 30) {
  for (let i = 0; i < warmup; i++) for (const fn of fns) await fn();
  const times = fns.map(() => []);
  for (let i = 0; i < calls; i++) {
    for (let k = 0; k < fns.length; k++) {
      const at = (i + k) % fns.length;
      times[at].push(await fns[at]());
    }
  }
  return times;
}
