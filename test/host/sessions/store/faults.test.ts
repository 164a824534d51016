import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../fixtures/manual-clock.js";
import { SessionStoreError } from "../../../../electron/host/sessions/store/session-store-error.js";
import { SessionStore } from "../../../../electron/host/sessions/session-store.js";
import { openStore, snapshot, tempDir } from "./store-fixtures.js";

function failure(fn: () => unknown): SessionStoreError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SessionStoreError);
    return error as SessionStoreError;
  }
  throw new Error("expected a SessionStoreError, but the call succeeded");
}

describe("session store faults", () => {
  it("refuses a file that is not a database, says what to do, and leaves it untouched", () => {
    const dir = tempDir();
    const file = path.join(dir, "sessions.sqlite");
    const garbage = Buffer.from("This is not a SQLite file. ".repeat(400));
    fs.writeFileSync(file, garbage);

    const error = failure(() => new SessionStore({ file, clock: new ManualClock() }));
    expect(error.name).toBe("SessionStoreError");
    expect(error.reason).toBe("store_corrupt");
    expect(error.file).toBe(file);
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/move the file aside/);
    expect(fs.readFileSync(file).equals(garbage)).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(["sessions.sqlite"]);
  });

  it("reports damaged pages in a real store as store_corrupt", () => {
    const { store, file } = openStore();
    store.transaction(() => {
      for (let i = 0; i < 200; i++) {
        const id = store.createSession({ snapshot, title: `session ${i}` }).id;
        store.appendMessage({ sessionId: id, role: "user", content: `message body ${i} `.repeat(40) });
      }
    });
    store.close();
    const bytes = fs.readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    // Keep page 1 (header and schema), scribble over everything after it.
    bytes.fill(0xa5, pageSize * 2);
    fs.writeFileSync(file, bytes);

    let error: SessionStoreError;
    try {
      const damaged = new SessionStore({ file, clock: new ManualClock() });
      error = failure(() => {
        damaged.listSessions();
        damaged.search("message");
      });
      damaged.close();
    } catch (openError) {
      error = openError as SessionStoreError;
    }
    expect(error).toBeInstanceOf(SessionStoreError);
    expect(error.reason).toBe("store_corrupt");
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it("fails a write with store_locked while another program holds the write lock, losing nothing", () => {
    const { store, file } = openStore({ busyTimeoutMs: 50 });
    const session = store.createSession({ snapshot, title: "Saved before the lock" });
    store.appendMessage({ sessionId: session.id, role: "user", content: "kept" });

    const other = new Database(file);
    other.exec("BEGIN EXCLUSIVE");
    try {
      const error = failure(() =>
        store.appendMessage({ sessionId: session.id, role: "user", content: "blocked" }),
      );
      expect(error.reason).toBe("store_locked");
      expect(error.message).toContain(file);
      expect(error.message).toMatch(/Close that program and try again/);
      // Reads go on in WAL mode.
      expect(store.listMessages(session.id).map((m) => m.content)).toEqual(["kept"]);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    store.appendMessage({ sessionId: session.id, role: "user", content: "after" });
    expect(store.listMessages(session.id).map((m) => m.content)).toEqual(["kept", "after"]);
  });

  it("fails to open with store_locked while another program holds the file exclusively", () => {
    const { store, file, reopen } = openStore({ busyTimeoutMs: 50 });
    const session = store.createSession({ snapshot, title: "Still here" });
    store.close();

    const other = new Database(file);
    other.pragma("locking_mode = EXCLUSIVE");
    other.exec("BEGIN EXCLUSIVE; UPDATE sessions SET title = title; COMMIT");
    try {
      const error = failure(() => new SessionStore({ file, clock: new ManualClock(), busyTimeoutMs: 50 }));
      expect(error.reason).toBe("store_locked");
    } finally {
      other.close();
    }
    expect(reopen().getSession(session.id)?.title).toBe("Still here");
  });
});
