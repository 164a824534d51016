/**
 * What each idle task of a plugin last did, in `<home>/plugin-data/<id>/idle-tasks.json`
 * (docs/contract.md §9.4: state survives restarts). Read fresh before each decision, because another app
 * process on the same data home may have run the task; written atomically (temp file, rename).
 */
import fs from "node:fs";
import path from "node:path";
import { pluginDataDir } from "../manager/plugin-state.js";

export const IDLE_STATUS_FILE = "idle-tasks.json";

export type IdleRunStatus = "ok" | "error" | "timeout";

export interface IdleTaskRecord {
  /** ISO time the task was first registered (a `defer` task's first run waits one interval from it). */
  first_registered: string;
  /** ISO time the last run started. */
  last_run: string | null;
  last_status: IdleRunStatus | null;
  /** Why the last run failed; null after a run that went well. */
  last_error: string | null;
  /** The local day (`localDayKey`) `runs_today` counts; null before the first run. */
  runs_day: string | null;
  /** Runs started on `runs_day` (the Plugins page shows today's, docs/contract.md §9.4). */
  runs_today: number;
}

/** Runs started on the local day `day`: the record's count when it is that day's, else 0. */
export const runsOn = (record: IdleTaskRecord | null, day: string): number =>
  record?.runs_day === day ? record.runs_today : 0;

const statuses: readonly string[] = ["ok", "error", "timeout"];

function readRecord(value: unknown): IdleTaskRecord | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  const time = (x: unknown) => (typeof x === "string" && !Number.isNaN(Date.parse(x)) ? x : null);
  const first = time(v.first_registered);
  if (first === null) return null;
  return {
    first_registered: first,
    last_run: time(v.last_run),
    last_status:
      typeof v.last_status === "string" && statuses.includes(v.last_status)
        ? (v.last_status as IdleRunStatus)
        : null,
    last_error: typeof v.last_error === "string" ? v.last_error : null,
    // Files from before the count read as "no runs counted yet".
    runs_day: typeof v.runs_day === "string" ? v.runs_day : null,
    runs_today:
      Number.isSafeInteger(v.runs_today) && (v.runs_today as number) > 0 ? (v.runs_today as number) : 0,
  };
}

export class IdleTaskStatusFile {
  readonly file: string;

  constructor(home: string, pluginId: string) {
    this.file = path.join(pluginDataDir(home, pluginId), IDLE_STATUS_FILE);
  }

  /** Every task's record; a missing or damaged file reads as empty (the next write replaces it). */
  readAll(): Record<string, IdleTaskRecord> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(this.file, "utf8"));
    } catch {
      return {};
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    const out: Record<string, IdleTaskRecord> = {};
    for (const [name, value] of Object.entries(parsed)) {
      const record = readRecord(value);
      if (record) out[name] = record;
    }
    return out;
  }

  read(name: string): IdleTaskRecord | null {
    return this.readAll()[name] ?? null;
  }

  /** Changes one task's record (creating it from `init` when absent) and writes the file. */
  update(
    name: string,
    init: () => IdleTaskRecord,
    change: (record: IdleTaskRecord) => void = () => {},
  ): IdleTaskRecord {
    const all = this.readAll();
    const record = all[name] ?? init();
    change(record);
    all[name] = record;
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(all, null, 2), { mode: 0o600 });
    fs.renameSync(temp, this.file);
    return record;
  }
}
