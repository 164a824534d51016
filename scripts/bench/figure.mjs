// One benchmark figure (SPEC §12): what was measured, its floor (the cheapest thing that does the
// same job, measured in the same run), the ratio, the target and whether it was met. `npm run bench`
// prints each as one line; `npm run bench -- --json` prints them all as `{"figures": [...]}`.

/**
 * A condition of `met`: the field `on` ("ratio", "value" or a field of `extra`) is a number within
 * `max`/`min`, or equals `equals` (e.g. `{on: "all_tokens_shown", equals: true}`); `unit` names
 * the field's unit where it is not the figure's (e.g. "tasks").
 * @typedef {{on: string, max?: number, min?: number, equals?: unknown, unit?: string}} Condition
 */

/**
 * @param {object} f
 * @param {string} f.name            e.g. "llm_overhead"
 * @param {number} f.value           the measured value, in `unit`
 * @param {string} f.unit            "ms", "MB", "%"
 * @param {number|null} [f.floor]    the same measure of the floor, in `unit` (null: the figure has none)
 * @param {Condition} f.target       the figure's main condition
 * @param {Condition[]} [f.also]     further conditions, all part of `met`
 * @param {string} f.text            the line's wording after "<name>: "
 * @param {Record<string, unknown>} [f.extra]  p50/p99/floor_p50/… and figure-specific fields
 */
export function figure({ name, value, unit, floor = null, target, also = [], text, extra = {} }) {
  const ratio = typeof floor === "number" && floor !== 0 ? value / floor : null;
  const fields = { ...extra, value, ratio };
  const checks = [target, ...also].map((condition) => check(condition, fields[condition.on]));
  return {
    name,
    value: round(value),
    unit,
    floor: floor === null ? null : round(floor),
    ratio: ratio === null ? null : round(ratio),
    target,
    met: checks.every((c) => c.met),
    checks,
    ...roundAll(extra),
    text,
  };
}

/** `condition` judged on `measured`: `{...condition, measured, met}`. */
export function check(condition, measured) {
  const met =
    "equals" in condition
      ? measured === condition.equals
      : typeof measured === "number" &&
        Number.isFinite(measured) &&
        (condition.max === undefined || measured <= condition.max) &&
        (condition.min === undefined || measured >= condition.min);
  return { ...condition, measured: round(measured ?? null), met };
}

/** A condition in words: `ratio ≤ 1.15x`, `longest_task_cpu_ms ≤ 16 ms`, `all_tokens_shown = true`. */
export function describeCondition(c, unit) {
  if ("equals" in c) return `${c.on} = ${JSON.stringify(c.equals)}`;
  const suffix =
    c.unit !== undefined
      ? ` ${c.unit}`
      : c.on === "ratio" || c.on.endsWith("_ratio")
        ? "x"
        : c.on.endsWith("_ms")
          ? " ms"
          : ` ${unit}`;
  const bound = [c.min !== undefined && `≥ ${c.min}`, c.max !== undefined && `≤ ${c.max}`]
    .filter(Boolean)
    .join(" and ");
  return `${c.on} ${bound}${suffix}`;
}

export function formatFigure(f) {
  if (f.error) return `${f.name}: failed: ${f.error}`;
  const checks = f.checks ?? [];
  const missed = checks.filter((c) => !c.met);
  const targets = checks.map((c) => describeCondition(c, f.unit)).join(", ");
  const verdict = f.met ? "met" : `missed (${missed.map((c) => `${c.on} was ${c.measured}`).join(", ")})`;
  return `${f.name}: ${f.text}; target ${targets}: ${verdict}`;
}

const round = (x) => (typeof x === "number" ? Number(x.toPrecision(6)) : x);
const roundAll = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, round(v)]));
