/**
 * Automatic backups of the session store in `<data home>/backups/`: one a day (on the injected
 * clock) with SQLite's online backup, and one before every schema migration, the newest
 * `BACKUPS_KEPT` kept. A backup is written under a temporary name and renamed when complete, so a
 * half-written one is never listed or restored.
 */
import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import type { Clock, TimerHandle } from "../../clock.js";
import type { SessionStore } from "../session-store.js";

export const BACKUPS_KEPT = 7;
export const BACKUP_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** The first daily check waits this long after start, off the way of the window's first paint. */
const FIRST_CHECK_DELAY_MS = 60_000;

export type BackupReason = "daily" | "before_migration";

export type BackupInfo = {
  /** The file's name in the backups folder: what `restore` takes. */
  name: string;
  reason: BackupReason;
  createdAt: number;
  bytes: number;
};

const NAME = /^sessions-(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z)-(daily|before_migration)(?:-\d+)?\.sqlite$/;

export class BackupNotFoundError extends Error {
  override readonly name = "BackupNotFoundError";
  constructor(backup: string) {
    super(`No backup named "${backup}" exists in the backups folder; pick one from the list.`);
  }
}

export class StoreBackups {
  private timer: TimerHandle | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly options: {
      /** `<data home>/backups` */
      dir: string;
      clock: Clock;
      /** The open store (throws when it cannot open: that day's backup is skipped). */
      store: () => SessionStore;
      onError?: (error: unknown) => void;
    },
  ) {}

  /** Newest first. */
  list(): BackupInfo[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.options.dir);
    } catch {
      return [];
    }
    const found: BackupInfo[] = [];
    for (const name of names) {
      const match = NAME.exec(name);
      if (!match) continue;
      const stat = fs.statSync(path.join(this.options.dir, name), { throwIfNoEntry: false });
      if (!stat?.isFile()) continue;
      found.push({
        name,
        reason: match[2] as BackupReason,
        createdAt: parseStamp(match[1]!),
        bytes: stat.size,
      });
    }
    return found.sort((a, b) => b.createdAt - a.createdAt || b.name.localeCompare(a.name));
  }

  /** The path of a listed backup; anything else (another file, a path) is refused. */
  pathOf(name: string): string {
    if (!this.list().some((backup) => backup.name === name)) throw new BackupNotFoundError(name);
    return path.join(this.options.dir, name);
  }

  /**
   * The hook the store runs before migrating (open-database.ts). Synchronous, as the open is:
   * `VACUUM INTO` writes one consistent copy (better-sqlite3's online backup is async only).
   */
  readonly beforeMigration = (db: Database.Database): void => {
    const target = this.newBackupPath("before_migration");
    const partial = `${target}.partial`;
    fs.rmSync(partial, { force: true });
    db.prepare("VACUUM INTO ?").run(partial);
    fs.renameSync(partial, target);
    this.prune();
  };

  /** Backs the store up now with SQLite's online backup; resolves with the new backup. */
  async backUp(reason: BackupReason = "daily"): Promise<BackupInfo> {
    const target = this.newBackupPath(reason);
    const partial = `${target}.partial`;
    try {
      await this.options.store().backupTo(partial);
      fs.renameSync(partial, target);
    } catch (error) {
      fs.rmSync(partial, { force: true });
      throw error;
    }
    this.prune();
    const made = this.list().find((backup) => backup.name === path.basename(target));
    if (!made) throw new Error(`The backup ${target} vanished as it was written.`);
    return made;
  }

  /** Starts the daily backups: one is due when the newest is a day old (or there is none). */
  start(): void {
    this.schedule(FIRST_CHECK_DELAY_MS);
  }

  stop(): void {
    if (this.timer) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** Resolves once a backup under way has ended (tests and shutdown). */
  async settled(): Promise<void> {
    await this.running;
  }

  private schedule(ms: number): void {
    this.stop();
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = null;
      this.running = this.dailyCheck();
    }, ms);
  }

  private async dailyCheck(): Promise<void> {
    const newest = this.list().find((backup) => backup.reason === "daily");
    const age = newest ? this.options.clock.now() - newest.createdAt : Infinity;
    if (age >= BACKUP_INTERVAL_MS) {
      try {
        await this.backUp("daily");
      } catch (error) {
        this.options.onError?.(error);
      }
      this.schedule(BACKUP_INTERVAL_MS);
    } else {
      this.schedule(BACKUP_INTERVAL_MS - age);
    }
  }

  private newBackupPath(reason: BackupReason): string {
    fs.mkdirSync(this.options.dir, { recursive: true });
    const base = `sessions-${stamp(this.options.clock.now())}-${reason}`;
    let candidate = path.join(this.options.dir, `${base}.sqlite`);
    for (let n = 2; fs.existsSync(candidate); n++)
      candidate = path.join(this.options.dir, `${base}-${n}.sqlite`);
    return candidate;
  }

  private prune(): void {
    for (const old of this.list().slice(BACKUPS_KEPT)) {
      fs.rmSync(path.join(this.options.dir, old.name), { force: true });
    }
  }
}

/** `2026-11-29T10-00-00-000Z`: an ISO time with no characters that file systems reject. */
function stamp(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/[:.]/g, "-");
}

function parseStamp(text: string): number {
  const [date, time] = text.split("T") as [string, string];
  const [h, m, s, ms] = time.replace("Z", "").split("-");
  return Date.parse(`${date}T${h}:${m}:${s}.${ms}Z`);
}
