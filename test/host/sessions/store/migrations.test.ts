import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../fixtures/manual-clock.js";
import {
  LATEST_SCHEMA_VERSION,
  MIGRATIONS,
  migrate,
} from "../../../../electron/host/sessions/store/migrations.js";
import { SessionStoreError } from "../../../../electron/host/sessions/store/session-store-error.js";
import { SessionStore } from "../../../../electron/host/sessions/session-store.js";
import { openStore, snapshot, tempDir } from "./store-fixtures.js";

function inspect(file: string): { version: number; journal: string; tables: string[] } {
  const db = new Database(file, { readonly: true });
  try {
    return {
      version: db.pragma("user_version", { simple: true }) as number,
      journal: db.pragma("journal_mode", { simple: true }) as string,
      tables: db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .pluck()
        .all() as string[],
    };
  } finally {
    db.close();
  }
}

describe("session store migrations", () => {
  it("brings a fresh file to the latest version, in WAL mode, and reopening changes nothing", () => {
    const { store, file, reopen } = openStore();
    store.close();
    const first = inspect(file);
    expect(first.version).toBe(LATEST_SCHEMA_VERSION);
    expect(first.version).toBe(MIGRATIONS.length);
    expect(first.journal).toBe("wal");
    expect(first.tables).toEqual(
      expect.arrayContaining(["sessions", "messages", "usage", "messages_fts", "sessions_fts"]),
    );
    reopen().close();
    expect(inspect(file)).toEqual(first);
  });

  it("creates the store's folder when it is missing", () => {
    const file = path.join(tempDir(), "deeper", "still", "sessions.sqlite");
    const store = new SessionStore({ file, clock: new ManualClock() });
    store.createSession({ snapshot });
    store.close();
    expect(fs.existsSync(file)).toBe(true);
  });

  it("refuses a file from a newer version with a clear error and leaves it byte for byte", () => {
    const file = path.join(tempDir(), "sessions.sqlite");
    const db = new Database(file);
    db.exec("CREATE TABLE future_things (x)");
    db.pragma("user_version = 99");
    db.close();
    const before = fs.readFileSync(file);

    let caught: unknown;
    try {
      new SessionStore({ file, clock: new ManualClock() });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SessionStoreError);
    const error = caught as SessionStoreError;
    expect(error.reason).toBe("store_too_new");
    expect(error.message).toContain(file);
    expect(error.message).toContain("99");
    expect(error.message).toMatch(/Update Hermes Desktop/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });

  it("applies only the steps a file lacks, each with its version", () => {
    const db = new Database(path.join(tempDir(), "m.sqlite"));
    const steps = [
      { version: 1, description: "one", up: (d: Database.Database) => d.exec("CREATE TABLE one (x)") },
      { version: 2, description: "two", up: (d: Database.Database) => d.exec("CREATE TABLE two (x)") },
    ];
    expect(migrate(db, steps.slice(0, 1))).toEqual({ from: 0, to: 1 });
    expect(migrate(db, steps)).toEqual({ from: 1, to: 2 });
    expect(migrate(db, steps)).toEqual({ from: 2, to: 2 });
    db.close();
  });

  it("rolls a failing step back entirely, leaving the previous version", () => {
    const db = new Database(path.join(tempDir(), "m.sqlite"));
    const steps = [
      { version: 1, description: "one", up: (d: Database.Database) => d.exec("CREATE TABLE one (x)") },
      {
        version: 2,
        description: "broken",
        up: (d: Database.Database) => {
          d.exec("CREATE TABLE half_done (x)");
          throw new Error("step 2 failed");
        },
      },
    ];
    expect(() => migrate(db, steps)).toThrow("step 2 failed");
    expect(db.pragma("user_version", { simple: true })).toBe(1);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half_done'").pluck().get()).toBe(0);
    db.close();
  });

  it("refuses a step list that is out of order", () => {
    const db = new Database(":memory:");
    expect(() => migrate(db, [{ version: 2, description: "skips one", up: () => undefined }])).toThrow(
      /expected 1/,
    );
    db.close();
  });
});
