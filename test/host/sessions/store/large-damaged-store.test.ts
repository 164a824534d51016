/**
 * A damaged session store too large for SQLite's full check at start (docs/contract.md §2; issue 32):
 * above the bound (32 MB) only the header and the length are checked, so random bytes in a page
 * open unnoticed. The first read that meets the damage must not leave the person with a store
 * that fails on every use: the file is moved aside whole (never deleted), what can be read is
 * salvaged into a fresh store, and a notice says where it went — as for a damaged store at start.
 *
 * `npm test` runs it on a small store with a small bound (the same path); `HERMES_STRESS=1` builds a
 * store larger than 32 MB and opens it with the real bound.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../fixtures/manual-clock.js";
import { SessionStore } from "../../../../electron/host/sessions/session-store.js";
import { SessionStoreError } from "../../../../electron/host/sessions/store/session-store-error.js";
import { DEFAULT_INTEGRITY_CHECK_MAX_BYTES } from "../../../../electron/host/sessions/recovery/store-damage.js";
import { StoreHandle } from "../../../../electron/host/sessions/recovery/store-handle.js";
import { snapshot, tempDir } from "./store-fixtures.js";

const STRESS = process.env.HERMES_STRESS === "1";
/** Above the real bound under stress; a small store and a small bound otherwise. */
const TARGET_BYTES = STRESS ? DEFAULT_INTEGRITY_CHECK_MAX_BYTES + 4 * 1024 * 1024 : 600 * 1024;
const BOUND = STRESS ? DEFAULT_INTEGRITY_CHECK_MAX_BYTES : 64 * 1024;
const MESSAGES_PER_CHAT = 20;

function writeStore(file: string): Map<string, string> {
  const store = new SessionStore({ file, clock: new ManualClock() });
  const contents = new Map<string, string>();
  for (let c = 0; fs.statSync(file).size < TARGET_BYTES; c++) {
    store.transaction(() => {
      for (let k = 0; k < 20; k++) {
        const chat = c * 20 + k;
        const session = store.createSession({ snapshot, title: `chat ${chat}` });
        for (let m = 0; m < MESSAGES_PER_CHAT; m++) {
          const content = `chat ${chat} message ${m} ` + `words of chat ${chat} `.repeat(40);
          const record = store.appendMessage({
            sessionId: session.id,
            role: m % 2 ? "assistant" : "user",
            content,
          });
          contents.set(record.id, content);
        }
      }
    });
  }
  store.close();
  return contents;
}

/** Random bytes over one page in the middle of the file (not the header page). */
function damagePage(file: string): Buffer {
  const bytes = fs.readFileSync(file);
  const pageSize = bytes.readUInt16BE(16);
  const victim = Math.floor(bytes.length / pageSize / 2);
  let seed = 11;
  for (let i = victim * pageSize; i < (victim + 1) * pageSize; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    bytes[i] = seed & 0xff;
  }
  fs.writeFileSync(file, bytes);
  return bytes;
}

/** Reads every chat's messages through the handle, as the app would; the errors it met. */
function readAll(handle: StoreHandle): { read: number; errors: SessionStoreError[] } {
  let read = 0;
  const errors: SessionStoreError[] = [];
  const attempt = (fn: () => void) => {
    try {
      fn();
    } catch (error) {
      if (!(error instanceof SessionStoreError)) throw error;
      errors.push(error);
    }
  };
  attempt(() => {
    for (const session of handle.get().listSessions()) {
      attempt(() => void (read += handle.get().listMessages(session.id).length));
    }
  });
  return { read, errors };
}

describe(`a damaged store larger than the check at start (${Math.round(TARGET_BYTES / 1024 / 1024)} MB, bound ${Math.round(BOUND / 1024)} KB)`, () => {
  it("met in use: moved aside whole, what can be read is kept, a notice says where, and it works again", () => {
    const dir = tempDir();
    const file = path.join(dir, "sessions.sqlite");
    const contents = writeStore(file);
    expect(fs.statSync(file).size).toBeGreaterThan(BOUND);
    const damaged = damagePage(file);

    const handle = new StoreHandle({
      file,
      clock: new ManualClock(),
      busyTimeoutMs: 100,
      integrityCheckMaxBytes: BOUND,
    });
    try {
      // Too large for the check at start: it opens unchecked.
      expect(handle.recovery()).toBeNull();
      const first = readAll(handle);
      expect(first.errors.length).toBeGreaterThan(0);
      expect(first.errors[0]!.reason).toBe("store_corrupt");
      expect(first.errors[0]!.message).toMatch(
        /turned out to be damaged.*moving it aside \(it is not deleted\).*try again in a moment/,
      );

      // The next use finds it salvaged.
      const again = readAll(handle);
      expect(again.errors).toEqual([]);
      const recovery = handle.recovery();
      expect(recovery?.damage).toMatch(/damaged page in use/);
      expect(fs.readFileSync(recovery!.movedTo).equals(damaged)).toBe(true);
      expect(handle.recoveryNotice()).toContain(recovery!.movedTo);
      // Only the damaged stretch is lost: one page holds a few of these ~1 KB messages (or index entries).
      expect(again.read).toBe(recovery!.messages);
      expect(again.read).toBeGreaterThanOrEqual(contents.size - 20);
      let checked = 0;
      for (const session of handle.get().listSessions()) {
        for (const message of handle.get().listMessages(session.id)) {
          expect(message.content).toBe(contents.get(message.id));
          checked += 1;
        }
      }
      expect(checked).toBe(again.read);
      // And it takes new chats.
      const fresh = handle.get().createSession({ snapshot, title: "after" });
      handle.get().appendMessage({ sessionId: fresh.id, role: "user", content: "still here" });
      expect(
        handle
          .get()
          .listMessages(fresh.id)
          .map((m) => m.content),
      ).toEqual(["still here"]);
    } finally {
      handle.close();
    }
  }, 600_000);
});
