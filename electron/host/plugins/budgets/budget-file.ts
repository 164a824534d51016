/**
 * Where the per-plugin daily counters live between runs: `plugin-usage.json` in the data home,
 * `{"version":1,"days":{"<plugin id>":{"day":"2026-11-29","tokens":120,"calls":4}}}`. Written
 * whole to a temp file and renamed over, so a crash leaves the old file or the new one. A file
 * that is missing, unreadable or not this shape starts the counters at zero (said on stderr).
 */
import fs from "node:fs";
import path from "node:path";

export const BUDGET_FILE_NAME = "plugin-usage.json";

export interface DayCount {
  day: string;
  tokens: number;
  calls: number;
}

const isCount = (value: unknown): value is DayCount => {
  const v = value as Partial<DayCount> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.day === "string" &&
    Number.isSafeInteger(v.tokens) &&
    (v.tokens ?? -1) >= 0 &&
    Number.isSafeInteger(v.calls) &&
    (v.calls ?? -1) >= 0
  );
};

export function readBudgetFile(file: string): Map<string, DayCount> {
  const days = new Map<string, DayCount>();
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      console.error(
        `${file} could not be read (${(error as Error).message}); plugin counters start at zero.`,
      );
    }
    return days;
  }
  try {
    const parsed = JSON.parse(text) as { version?: unknown; days?: unknown };
    if (parsed?.version !== 1 || typeof parsed.days !== "object" || parsed.days === null)
      throw new Error("not version 1");
    for (const [id, count] of Object.entries(parsed.days)) {
      if (isCount(count)) days.set(id, { day: count.day, tokens: count.tokens, calls: count.calls });
    }
  } catch (error) {
    console.error(
      `${file} is not a plugin usage file (${(error as Error).message}); plugin counters start at zero.`,
    );
  }
  return days;
}

export function writeBudgetFile(file: string, days: ReadonlyMap<string, DayCount>): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(temp, JSON.stringify({ version: 1, days: Object.fromEntries(days) }), { mode: 0o600 });
  fs.renameSync(temp, file);
}
