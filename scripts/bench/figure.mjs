// One benchmark figure: what was measured, its baseline from the same run, the target and whether
// it was met. `npm run bench` prints each as one line; `npm run bench -- --json` prints them all as
// `{"figures": [...]}`.

/**
 * @param {object} f
 * @param {string} f.name            e.g. "llm_overhead"
 * @param {number} f.value           the measured value, in `unit`
 * @param {string} f.unit            "ms", "tokens/s", "MB", "%"
 * @param {number|null} [f.baseline] the same measure of the baseline, in `unit`
 * @param {{on: "ratio"|"value"|"p95"|string, max?: number, min?: number}} f.target
 * @param {string} f.text            the line's wording after "<name>: "
 * @param {Record<string, unknown>} [f.extra]  p50/p99/baseline_p50/… and figure-specific fields
 * @param {boolean} [f.requires]     a further condition of `met` (e.g. every token was shown)
 */
export function figure({ name, value, unit, baseline = null, target, text, extra = {}, requires = true }) {
  const ratio = baseline ? value / baseline : null;
  const measured = target.on === "ratio" ? ratio : target.on === "value" ? value : extra[target.on];
  const met =
    requires &&
    typeof measured === "number" &&
    (target.max === undefined || measured <= target.max) &&
    (target.min === undefined || measured >= target.min);
  return {
    name,
    value: round(value),
    unit,
    baseline: baseline === null ? null : round(baseline),
    ratio: ratio === null ? null : round(ratio),
    target,
    met,
    ...roundAll(extra),
    text,
  };
}

export function formatFigure(f) {
  const bound = [
    f.target.min !== undefined && `≥ ${f.target.min}`,
    f.target.max !== undefined && `≤ ${f.target.max}`,
  ]
    .filter(Boolean)
    .join(" and ");
  // A target on a figure-specific field names its unit in the field (`longest_task_ms`).
  const suffix = f.target.on === "ratio" ? "x" : f.target.on.endsWith("_ms") ? " ms" : ` ${f.unit}`;
  return `${f.name}: ${f.text}; target ${f.target.on} ${bound}${suffix}: ${f.met ? "met" : "missed"}`;
}

const round = (x) => (typeof x === "number" ? Number(x.toPrecision(6)) : x);
const roundAll = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, round(v)]));
