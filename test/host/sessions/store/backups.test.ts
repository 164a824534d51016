import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../fixtures/manual-clock.js";
import {
  MIGRATIONS,
  LATEST_SCHEMA_VERSION,
  migrate,
} from "../../../../electron/host/sessions/store/migrations.js";
import { messageKey } from "../../../../electron/host/sessions/store/tables/message-key.js";
import { SessionStoreError } from "../../../../electron/host/sessions/store/session-store-error.js";
import {
  BACKUP_INTERVAL_MS,
  BACKUPS_KEPT,
  BackupNotFoundError,
  StoreBackups,
} from "../../../../electron/host/sessions/recovery/store-backups.js";
import { StoreHandle } from "../../../../electron/host/sessions/recovery/store-handle.js";
import { snapshot, tempDir } from "./store-fixtures.js";

const handles: StoreHandle[] = [];
afterEach(() => {
  while (handles.length) handles.pop()?.close();
});

function setUp(dir = tempDir(), clock = new ManualClock()) {
  const file = path.join(dir, "sessions.sqlite");
  const backups: StoreBackups = new StoreBackups({
    dir: path.join(dir, "backups"),
    clock,
    store: () => handle.get(),
  });
  const handle = new StoreHandle({ file, clock, beforeMigration: backups.beforeMigration });
  handles.push(handle);
  return { dir, file, clock, handle, backups };
}

/** Every message of every chat, by id. */
function allMessages(handle: StoreHandle): Map<string, string> {
  const store = handle.get();
  const found = new Map<string, string>();
  for (const session of store.listSessions()) {
    for (const message of store.listMessages(session.id)) found.set(message.id, message.content);
  }
  return found;
}

function writeChats(handle: StoreHandle, chats: number, label: string): void {
  const store = handle.get();
  store.transaction(() => {
    for (let c = 0; c < chats; c++) {
      const session = store.createSession({ snapshot, title: `${label} ${c}` });
      for (let m = 0; m < 5; m++) {
        store.appendMessage({
          sessionId: session.id,
          role: m % 2 ? "assistant" : "user",
          content: `${label} ${c}.${m}`,
        });
      }
    }
  });
}

describe("automatic backups of the session store", () => {
  it("backs up daily on the clock and keeps the newest seven", async () => {
    const { clock, handle, backups } = setUp();
    writeChats(handle, 3, "chat");
    backups.start();
    expect(backups.list()).toEqual([]);
    clock.advance(60_000);
    await backups.settled();
    expect(backups.list().map((b) => b.reason)).toEqual(["daily"]);
    // Less than a day later: nothing new.
    clock.advance(BACKUP_INTERVAL_MS / 2);
    await backups.settled();
    expect(backups.list()).toHaveLength(1);
    for (let day = 0; day < 9; day++) {
      clock.advance(BACKUP_INTERVAL_MS);
      await backups.settled();
    }
    const kept = backups.list();
    expect(kept).toHaveLength(BACKUPS_KEPT);
    // Newest first, a day apart, the newest within the last day.
    expect(clock.now() - kept[0]!.createdAt).toBeLessThan(BACKUP_INTERVAL_MS);
    for (let i = 1; i < kept.length; i++) {
      expect(kept[i - 1]!.createdAt - kept[i]!.createdAt).toBe(BACKUP_INTERVAL_MS);
    }
    expect(fs.readdirSync(path.dirname(backups.pathOf(kept[0]!.name))).sort()).toEqual(
      kept.map((b) => b.name).sort(),
    );
    backups.stop();
  });

  it("backs up an existing store before migrating its schema, at its old version", () => {
    const dir = tempDir();
    const file = path.join(dir, "sessions.sqlite");
    const old = new Database(file);
    old.pragma("journal_mode = WAL");
    migrate(old, MIGRATIONS.slice(0, 4));
    old.exec(`INSERT INTO sessions (row, id, title, title_state, settings_snapshot, created_at, updated_at)
              VALUES (1, 's1', 'Old chat', 'set', '${JSON.stringify(snapshot)}', 1, 1)`);
    old.exec(`INSERT INTO messages (row, id, session_row, seq, role, content, status, meta, created_at)
              VALUES (${messageKey(1, 0)}, 'm1', 1, 0, 'user', 'written by version 4', 'complete', '{}', 1)`);
    old.close();

    const { handle, backups } = setUp(dir);
    expect(
      handle
        .get()
        .listMessages("s1")
        .map((m) => m.content),
    ).toEqual(["written by version 4"]);
    const [backup] = backups.list();
    expect(backup?.reason).toBe("before_migration");
    const copy = new Database(backups.pathOf(backup!.name), { readonly: true });
    try {
      expect(copy.pragma("user_version", { simple: true })).toBe(4);
      expect(copy.prepare("SELECT content FROM messages").pluck().all()).toEqual(["written by version 4"]);
    } finally {
      copy.close();
    }
    // The open store is at the latest version; a second open migrates nothing and backs up nothing.
    handle.close();
    const again = setUp(dir);
    again.handle.get();
    expect(again.backups.list()).toHaveLength(1);
    expect(LATEST_SCHEMA_VERSION).toBeGreaterThan(4);
  });

  it("restores a backup with every message, keeping the current store aside", async () => {
    const { dir, file, handle, backups } = setUp();
    writeChats(handle, 20, "before");
    const atBackup = allMessages(handle);
    const backup = await backups.backUp();

    // Later: a chat deleted, new ones written.
    const store = handle.get();
    store.deleteSession(store.listSessions()[0]!.id);
    writeChats(handle, 2, "after");
    const current = allMessages(handle);

    const { keptAside } = handle.restore(backups.pathOf(backup.name));
    expect(allMessages(handle)).toEqual(atBackup);
    expect(atBackup.size).toBe(100);
    expect(path.dirname(keptAside)).toBe(dir);
    expect(path.basename(keptAside)).toMatch(/^sessions\.sqlite\.before-restore-/);
    // The store kept aside holds the later state, whole.
    const aside = new StoreHandle({ file: keptAside, clock: new ManualClock() });
    handles.push(aside);
    expect(allMessages(aside)).toEqual(current);
    expect(fs.existsSync(file)).toBe(true);
    // The restored store takes new writes.
    writeChats(handle, 1, "restored");
    expect(allMessages(handle).size).toBe(105);
  });

  it("refuses an unknown backup name and a damaged backup, leaving the store as it was", async () => {
    const { handle, backups } = setUp();
    writeChats(handle, 2, "kept");
    const before = allMessages(handle);
    expect(() => backups.pathOf("../sessions.sqlite")).toThrow(BackupNotFoundError);
    expect(() => backups.pathOf("nope.sqlite")).toThrow(/No backup named "nope.sqlite" exists/);

    const backup = await backups.backUp();
    const target = backups.pathOf(backup.name);
    fs.writeFileSync(target, "this is not a database ".repeat(100));
    let error: unknown;
    try {
      handle.restore(target);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SessionStoreError);
    expect((error as SessionStoreError).reason).toBe("store_corrupt");
    expect(allMessages(handle)).toEqual(before);
  });
});
