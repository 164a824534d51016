/**
 * `ctx.registerIdleTask(name, fn, {intervalHours, minIdleHours, firstRun})` arguments (docs/contract.md §9.4),
 * checked once here for both sides of the boundary: the worker throws the message at the plugin,
 * the host checks again (it never trusts what a worker sends).
 */

export type IdleFirstRun = "defer" | "now";

export interface IdleTaskOptions {
  /** Hours between runs (measured from the last run's start). */
  intervalHours: number;
  /** Hours without person input and without a running turn before a run may start. */
  minIdleHours: number;
  /** `defer`: the first run waits one interval from the task's first registration; `now`: no wait. */
  firstRun: IdleFirstRun;
}

export const DEFAULT_MIN_IDLE_HOURS = 2;
/** A year: the longest `minIdleHours`. (`intervalHours` may be any positive number, docs/contract.md §9.4.) */
export const MAX_HOURS = 24 * 365;

const namePattern = /^[A-Za-z0-9_-]{1,64}$/;

/** A value as the plugin wrote it: `"24"` (a string), `NaN`, `Infinity`, `undefined`. */
const describeValue = (value: unknown): string =>
  typeof value === "number" ? String(value) : (JSON.stringify(value) ?? String(value));
const knownOptions = ["intervalHours", "minIdleHours", "firstRun"];

export function idleTaskNameProblem(name: unknown): string | null {
  if (typeof name === "string" && namePattern.test(name)) return null;
  return `registerIdleTask: the name must be 1 to 64 letters, digits, _ or - (got ${JSON.stringify(name) ?? String(name)}).`;
}

/** The options with defaults filled in, or the message that says what to fix. */
export function parseIdleTaskOptions(
  name: string,
  raw: unknown,
): { ok: true; options: IdleTaskOptions } | { ok: false; problem: string } {
  const where = `registerIdleTask("${name}")`;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, problem: `${where} needs options {intervalHours, minIdleHours?, firstRun?}.` };
  }
  const given = raw as Record<string, unknown>;
  const unknown = Object.keys(given).filter((key) => !knownOptions.includes(key));
  if (unknown.length > 0) {
    return {
      ok: false,
      problem: `${where}: unknown option ${unknown.map((k) => `"${k}"`).join(", ")}; use ${knownOptions.join(", ")}.`,
    };
  }
  const { intervalHours, minIdleHours = DEFAULT_MIN_IDLE_HOURS, firstRun = "defer" } = given;
  // Any positive number, seconds too: one run at a time and the idle gate keep a short interval harmless.
  if (typeof intervalHours !== "number" || !Number.isFinite(intervalHours)) {
    return {
      ok: false,
      problem: `${where}: intervalHours must be a number of hours, e.g. 24 (or 1/3600 for a second); got ${describeValue(intervalHours)}.`,
    };
  }
  if (intervalHours <= 0) {
    return {
      ok: false,
      problem: `${where}: intervalHours must be more than 0 hours, e.g. 24 (or 1/3600 for a second); got ${intervalHours}.`,
    };
  }
  if (typeof minIdleHours !== "number" || !Number.isFinite(minIdleHours)) {
    return { ok: false, problem: `${where}: minIdleHours must be a number of hours (default 2).` };
  }
  if (minIdleHours < 0 || minIdleHours > MAX_HOURS) {
    return {
      ok: false,
      problem: `${where}: minIdleHours must be between 0 and ${MAX_HOURS}; got ${minIdleHours}.`,
    };
  }
  if (firstRun !== "defer" && firstRun !== "now") {
    return {
      ok: false,
      problem: `${where}: firstRun must be "defer" or "now"; got ${JSON.stringify(firstRun) ?? String(firstRun)}.`,
    };
  }
  return { ok: true, options: { intervalHours, minIdleHours, firstRun } };
}
