import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { LATEST_SCHEMA_VERSION, migrate, readSchemaVersion } from "./migrations.js";
import { SessionStoreError, translateSqliteError } from "./session-store-error.js";

export type OpenDatabaseOptions = {
  busyTimeoutMs: number;
  /** Runs before an existing store's schema is migrated (a backup, store-backups.ts); a throw stops the open. */
  beforeMigration?: BeforeMigration;
};

export type BeforeMigration = (db: Database.Database, from: number, to: number) => void;

/**
 * Opens (or creates) the store file, refuses files it must not touch, then brings the schema up
 * to date. The checks that can fail without writing (is it a database, is its schema known) run
 * before anything that writes, so a refused file keeps its exact bytes.
 */
export function openSessionDatabase(file: string, options: OpenDatabaseOptions): Database.Database {
  let db: Database.Database | undefined;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    db = new Database(file, { timeout: options.busyTimeoutMs });
    // The first read of page 1: a file that is not a database fails here, before any write.
    const found = readSchemaVersion(db);
    if (found > LATEST_SCHEMA_VERSION) throw SessionStoreError.tooNew(file, found, LATEST_SCHEMA_VERSION);
    // WAL lets the UI read while a reply is written; NORMAL sync is crash-safe in WAL mode (a power
    // cut may lose the last commits, never the file). Foreign keys drive the cascading deletes.
    const mode = db.pragma("journal_mode = WAL", { simple: true });
    if (mode !== "wal") {
      throw SessionStoreError.unavailable(
        file,
        `the file system refused write-ahead logging (mode ${String(mode)})`,
      );
    }
    db.pragma("synchronous = NORMAL");
    // A long transaction grows the WAL; give the disk back after each checkpoint.
    db.pragma("journal_size_limit = 67108864");
    db.pragma("foreign_keys = ON");
    // A new file (version 0) has nothing to keep.
    if (found > 0 && found < LATEST_SCHEMA_VERSION)
      options.beforeMigration?.(db, found, LATEST_SCHEMA_VERSION);
    migrate(db);
    return db;
  } catch (error) {
    db?.close();
    throw translateSqliteError(error, file);
  }
}
