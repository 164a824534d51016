import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../fixtures/manual-clock.js";
import { StoreHandle } from "../../../../electron/host/sessions/recovery/store-handle.js";
import {
  DEFAULT_INTEGRITY_CHECK_MAX_BYTES,
  findStoreDamage,
  findStoreDamageOffThread,
} from "../../../../electron/host/sessions/recovery/store-damage.js";
import { snapshot, tempDir } from "./store-fixtures.js";
import { SessionStore } from "../../../../electron/host/sessions/session-store.js";

const CHATS = 60;
const MESSAGES_PER_CHAT = 8;

/** A real store with chats whose messages are long enough to spread over many pages. */
function writeStore(dir: string): { file: string; contents: Map<string, string> } {
  const file = path.join(dir, "sessions.sqlite");
  const store = new SessionStore({ file, clock: new ManualClock() });
  const contents = new Map<string, string>();
  store.transaction(() => {
    for (let c = 0; c < CHATS; c++) {
      const session = store.createSession({ snapshot, title: `chat ${c}` });
      for (let m = 0; m < MESSAGES_PER_CHAT; m++) {
        const content = `chat ${c} message ${m} ` + `words of chat ${c} `.repeat(30);
        const record = store.appendMessage({
          sessionId: session.id,
          role: m % 2 ? "assistant" : "user",
          content,
        });
        contents.set(record.id, content);
      }
    }
  });
  store.close();
  return { file, contents };
}

function openHandle(file: string): StoreHandle {
  const handle = new StoreHandle({ file, clock: new ManualClock(), busyTimeoutMs: 100 });
  return handle;
}

/** Every message the recovered store holds, by id, checked against what was written. */
function recoveredMessages(handle: StoreHandle, written: Map<string, string>): number {
  const store = handle.get();
  let found = 0;
  for (const session of store.listSessions()) {
    for (const message of store.listMessages(session.id)) {
      expect(message.content).toBe(written.get(message.id));
      found += 1;
    }
  }
  return found;
}

function asideFiles(dir: string): string[] {
  // The salvage's read-only open adds SQLite's -wal/-shm companions next to the moved file.
  return fs
    .readdirSync(dir)
    .filter((name) => name.startsWith("sessions.sqlite.corrupt-") && !/-(wal|shm)$/.test(name));
}

describe("a damaged session store at start", () => {
  it("truncated: moved aside whole, the readable messages are kept, and a notice says where", () => {
    const dir = tempDir();
    const { file, contents } = writeStore(dir);
    const bytes = fs.readFileSync(file);
    const cut = bytes.subarray(0, Math.floor(bytes.length / 2));
    fs.writeFileSync(file, cut);

    const handle = openHandle(file);
    try {
      const recovery = handle.recovery();
      expect(recovery?.damage).toMatch(/truncated/);
      expect(fs.readFileSync(recovery!.movedTo).equals(cut)).toBe(true);
      expect(asideFiles(dir)).toEqual([path.basename(recovery!.movedTo)]);
      const kept = recoveredMessages(handle, contents);
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBe(recovery!.messages);
      expect(handle.recoveryNotice()).toContain(recovery!.movedTo);
      expect(handle.recoveryNotice()).toContain(`${kept} messages that could be read were kept`);
      // The fresh store works: search finds a kept message, and new chats can be written.
      const some = handle.get().listSessions()[0]!;
      expect(handle.get().search(some.title.replace("chat ", "chat "))).not.toHaveLength(0);
      const fresh = handle.get().createSession({ snapshot, title: "after recovery" });
      handle.get().appendMessage({ sessionId: fresh.id, role: "user", content: "still writes" });
    } finally {
      handle.close();
    }
  });

  it("random bytes in a page: only the damaged stretch is lost, every other message is kept", () => {
    const dir = tempDir();
    const { file, contents } = writeStore(dir);
    const bytes = fs.readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    const pages = bytes.length / pageSize;
    const victim = Math.floor(pages / 2);
    let seed = 7;
    for (let i = victim * pageSize; i < (victim + 1) * pageSize; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      bytes[i] = seed & 0xff;
    }
    fs.writeFileSync(file, bytes);

    const handle = openHandle(file);
    try {
      const recovery = handle.recovery();
      expect(recovery?.damage).toMatch(/integrity check|could not read/);
      expect(fs.readFileSync(recovery!.movedTo).equals(bytes)).toBe(true);
      const kept = recoveredMessages(handle, contents);
      // One page of ~4 KiB holds at most a few of these ~600-byte messages (or one index page).
      expect(kept).toBeGreaterThanOrEqual(contents.size - 10);
      expect(kept).toBe(recovery!.messages);
    } finally {
      handle.close();
    }
  });

  for (const [kind, foreign] of [
    [
      "a PNG image",
      Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), Buffer.alloc(4000, 7)]),
    ],
    ["a text file", Buffer.from("These are my notes, saved under the wrong name.\n".repeat(100))],
  ] as const) {
    it(`a foreign file (${kind}): moved aside untouched, chats start empty, the notice says so`, () => {
      const dir = tempDir();
      const file = path.join(dir, "sessions.sqlite");
      fs.writeFileSync(file, foreign);

      const handle = openHandle(file);
      try {
        const recovery = handle.recovery()!;
        expect(recovery.damage).toMatch(/not a SQLite database/);
        expect(fs.readFileSync(recovery.movedTo).equals(foreign)).toBe(true);
        expect(handle.get().listSessions()).toEqual([]);
        expect(handle.recoveryNotice()).toMatch(/nothing in it could be read, so chats start empty/);
        expect(handle.recoveryNotice()).toContain(recovery.movedTo);
      } finally {
        handle.close();
      }
    });
  }

  it("moves the write-ahead log aside with the file, byte for byte, and salvages its committed writes", () => {
    const dir = tempDir();
    const file = path.join(dir, "sessions.sqlite");
    const store = new SessionStore({ file, clock: new ManualClock() });
    const session = store.createSession({ snapshot, title: "only in the log" });
    store.appendMessage({ sessionId: session.id, role: "user", content: "written to the WAL" });
    // A copy taken while the store is open: the database file plus its log, like a crash leaves.
    const copyDir = tempDir();
    const copy = path.join(copyDir, "sessions.sqlite");
    fs.copyFileSync(`${file}-wal`, `${copy}-wal`);
    const log = fs.readFileSync(`${copy}-wal`);
    // Damage the main file's header so the open refuses it.
    const main = fs.readFileSync(file);
    main.write("not sqlite at all", 0, "latin1");
    fs.writeFileSync(copy, main);
    store.close();

    const handle = openHandle(copy);
    try {
      const recovery = handle.recovery()!;
      expect(fs.readFileSync(`${recovery.movedTo}-wal`).equals(log)).toBe(true);
      // The log's newer copy of page 1 makes the damaged header readable again: nothing is lost.
      const [kept] = handle.get().listSessions();
      expect(kept?.title).toBe("only in the log");
      expect(
        handle
          .get()
          .listMessages(kept!.id)
          .map((m) => m.content),
      ).toEqual(["written to the WAL"]);
    } finally {
      handle.close();
    }
  });

  it("leaves a healthy store where it is, with no notice", () => {
    const dir = tempDir();
    const { file, contents } = writeStore(dir);
    const handle = openHandle(file);
    try {
      expect(handle.recovery()).toBeNull();
      expect(handle.recoveryNotice()).toBeNull();
      expect(asideFiles(dir)).toEqual([]);
      expect(recoveredMessages(handle, contents)).toBe(contents.size);
    } finally {
      handle.close();
    }
  });

  it("checked off the main thread (web mode): the worker finds what the in-thread check finds, and the store recovers", async () => {
    const dir = tempDir();
    const { file, contents } = writeStore(dir);
    const max = DEFAULT_INTEGRITY_CHECK_MAX_BYTES;
    expect(await findStoreDamageOffThread(file, max)).toBeNull();
    const bytes = fs.readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    const victim = Math.floor(bytes.length / pageSize / 2);
    bytes.fill(0x5a, victim * pageSize + 8, (victim + 1) * pageSize);
    fs.writeFileSync(file, bytes);

    const inThread = findStoreDamage(file, max);
    expect(inThread).toMatch(/integrity check|could not read/);
    const damage = await findStoreDamageOffThread(file, max);
    expect(damage).toBe(inThread);
    const handle = new StoreHandle({
      file,
      clock: new ManualClock(),
      busyTimeoutMs: 100,
      damageFound: damage,
    });
    try {
      expect(handle.recovery()?.damage).toBe(damage);
      expect(recoveredMessages(handle, contents)).toBe(handle.recovery()!.messages);
    } finally {
      handle.close();
    }
  });
});
