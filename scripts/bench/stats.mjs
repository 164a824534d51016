// Small statistics helpers for the benchmarks.
export const median = (xs) => percentile(xs, 50);
export function percentile(xs, p) {
  const sorted = [...xs].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}
export const ms = (x) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;
