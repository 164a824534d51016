import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../fixtures/manual-clock.js";
import { ROW_APPEND_LIMIT } from "../../../../electron/host/sessions/store/tables/message-chunks.js";
import {
  LATEST_SCHEMA_VERSION,
  MIGRATIONS,
  migrate,
} from "../../../../electron/host/sessions/store/migrations.js";
import { SessionStore } from "../../../../electron/host/sessions/session-store.js";
import { openStore, snapshot, tempDir } from "./store-fixtures.js";

/** Rows of `message_chunks` and the stored row's own `content`, read from the file as it is. */
function onDisk(file: string, messageId: string): { chunks: number; rowContent: string } {
  const db = new Database(file, { readonly: true });
  try {
    const rowContent = db.prepare("SELECT content FROM messages WHERE id = ?").pluck().get(messageId);
    const chunks = db.prepare("SELECT count(*) FROM message_chunks").pluck().get();
    return { chunks: chunks as number, rowContent: rowContent as string };
  } finally {
    db.close();
  }
}

/** A reply's deltas: the first fills the row's in-place allowance, the rest become chunks. */
const opening = `${"Opening words ".repeat(Math.ceil(ROW_APPEND_LIMIT / 14))}\n\n`;
const pieces = [
  opening,
  "Chunked ",
  "replies ",
  "grow ",
  "by ",
  "appending; ",
  "zebrafinch ",
  "ends ",
  "them.",
];

describe("a streaming reply's chunks", () => {
  it("take a reply's text once its row holds ~2K characters, and read back as its whole text in order", () => {
    const { store, file } = openStore();
    const session = store.createSession({ snapshot });
    store.appendMessage({ sessionId: session.id, role: "user", content: "go" });
    const reply = store.appendMessage({ sessionId: session.id, role: "assistant", status: "streaming" });
    for (const piece of pieces) expect(store.appendDelta(reply.id, piece)).toBe(true);

    const whole = pieces.join("");
    expect(onDisk(file, reply.id)).toEqual({ chunks: pieces.length - 1, rowContent: opening });
    expect(store.getMessage(reply.id)).toMatchObject({ content: whole, status: "streaming" });
    expect(store.listMessages(session.id).map((m) => m.content)).toEqual(["go", whole]);
    // Still streaming: not in the search index yet.
    expect(store.search("zebrafinch")).toEqual([]);
  });

  it("are not made for a short reply: its text goes into its row as it comes", () => {
    const { store, file } = openStore();
    const session = store.createSession({ snapshot });
    const reply = store.appendMessage({ sessionId: session.id, role: "assistant", status: "streaming" });
    for (const piece of ["A short ", "reply"]) expect(store.appendDelta(reply.id, piece)).toBe(true);
    expect(onDisk(file, reply.id)).toEqual({ chunks: 0, rowContent: "A short reply" });
    expect(store.updateMessage(reply.id, { status: "complete" }).content).toBe("A short reply");
  });

  it("are folded into the row when the reply ends, and the reply is then searchable", () => {
    const { store, file } = openStore();
    const session = store.createSession({ snapshot });
    const reply = store.appendMessage({ sessionId: session.id, role: "assistant", status: "streaming" });
    for (const piece of pieces) store.appendDelta(reply.id, piece);

    const done = store.updateMessage(reply.id, { status: "complete", meta: { model: "m" } });
    expect(done).toMatchObject({ content: pieces.join(""), status: "complete", meta: { model: "m" } });
    expect(onDisk(file, reply.id)).toEqual({ chunks: 0, rowContent: pieces.join("") });
    expect(store.search("zebrafinch").map((hit) => hit.snippet?.messageId)).toEqual([reply.id]);
    expect(store.appendDelta(reply.id, " late")).toBe(false);
    expect(store.getMessage(reply.id)?.content).toBe(pieces.join(""));
  });

  it("are replaced when the reply's end brings its whole text", () => {
    const { store, file } = openStore();
    const session = store.createSession({ snapshot });
    const reply = store.appendMessage({ sessionId: session.id, role: "assistant", status: "streaming" });
    for (const piece of pieces) store.appendDelta(reply.id, piece);

    const done = store.updateMessage(reply.id, { content: "The final text", status: "stopped" });
    expect(done).toMatchObject({ content: "The final text", status: "stopped" });
    expect(onDisk(file, reply.id)).toEqual({ chunks: 0, rowContent: "The final text" });
    expect(store.search("zebrafinch")).toEqual([]);
  });

  it("stay in place when a streaming reply's meta changes, and go with a deleted reply or session", () => {
    const { store, file } = openStore();
    const session = store.createSession({ snapshot });
    const reply = store.appendMessage({ sessionId: session.id, role: "assistant", status: "streaming" });
    store.appendDelta(reply.id, opening);
    store.appendDelta(reply.id, "one ");
    store.updateMessage(reply.id, { meta: { note: "x" } });
    store.appendDelta(reply.id, "two");
    expect(store.getMessage(reply.id)).toMatchObject({ content: `${opening}one two`, status: "streaming" });
    expect(onDisk(file, reply.id).chunks).toBe(2);

    expect(store.deleteMessages([reply.id])).toBe(1);
    expect(onDisk(file, reply.id).chunks).toBe(0);

    const other = store.appendMessage({ sessionId: session.id, role: "assistant", status: "streaming" });
    store.appendDelta(other.id, opening);
    store.appendDelta(other.id, "going");
    expect(onDisk(file, other.id).chunks).toBe(1);
    store.deleteSession(session.id);
    expect(onDisk(file, other.id).chunks).toBe(0);
  });

  it("move with a streaming reply moved to the end of its transcript", () => {
    const { store } = openStore();
    const session = store.createSession({ snapshot });
    const reply = store.appendMessage({ sessionId: session.id, role: "assistant", status: "streaming" });
    store.appendDelta(reply.id, opening);
    store.appendDelta(reply.id, "kept ");
    store.appendMessage({ sessionId: session.id, role: "user", content: "later" });
    store.moveMessageToEnd(reply.id);
    store.appendDelta(reply.id, "text");
    expect(store.listMessages(session.id).map((m) => m.content)).toEqual(["later", `${opening}kept text`]);
  });

  it("survive a crash mid-stream: every appended chunk is in the reply marked interrupted at the next open", () => {
    const { store, file, reopen } = openStore();
    const session = store.createSession({ snapshot });
    const reply = store.appendMessage({ sessionId: session.id, role: "assistant", status: "streaming" });
    for (const piece of pieces) store.appendDelta(reply.id, piece);
    // A crash: the process dies without finishing the reply.
    store.close();

    const again = reopen();
    expect(again.interruptedAtOpen).toBe(1);
    expect(again.getMessage(reply.id)).toMatchObject({ content: pieces.join(""), status: "interrupted" });
    expect(onDisk(file, reply.id)).toEqual({ chunks: 0, rowContent: pieces.join("") });
    expect(again.search("zebrafinch").map((hit) => hit.snippet?.messageId)).toEqual([reply.id]);
    expect(again.markStreamingAsInterrupted()).toBe(0);
    expect(again.getMessage(reply.id)?.content).toBe(pieces.join(""));
  });
});

/** The schema (tables, indexes, triggers) of a file, without SQLite's own statistics tables. */
function schemaOf(db: Database.Database): string[] {
  return db
    .prepare(
      "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
    )
    .pluck()
    .all() as string[];
}

describe("migration 5 (message chunks)", () => {
  it("brings a version 4 store up keeping every session and message, a reply it left streaming too", () => {
    const dir = tempDir();
    const fresh4 = new Database(path.join(dir, "fresh-v4.sqlite"));
    migrate(fresh4, MIGRATIONS.slice(0, 4));
    const version4Schema = schemaOf(fresh4);
    fresh4.close();

    // A store as version 4 left it: a finished exchange, and a reply streaming when it crashed,
    // its text in its row (version 4 appended deltas there).
    const { store: before, file } = openStore({ dir });
    const session = before.createSession({ snapshot, title: "Old chat" });
    before.appendMessage({ sessionId: session.id, role: "user", content: "what is a quokka" });
    before.appendMessage({ sessionId: session.id, role: "assistant", content: "a marsupial" });
    const crashed = before.appendMessage({ sessionId: session.id, role: "assistant", status: "streaming" });
    before.close();
    const raw = new Database(file);
    raw.prepare("UPDATE messages SET content = ? WHERE id = ?").run("half a wombat", crashed.id);
    raw.exec("DROP TABLE message_chunks; PRAGMA user_version = 4;");
    expect(schemaOf(raw)).toEqual(version4Schema);
    raw.close();

    const store = new SessionStore({ file, clock: new ManualClock() });
    try {
      const db = new Database(file, { readonly: true });
      expect(db.pragma("user_version", { simple: true })).toBe(LATEST_SCHEMA_VERSION);
      db.close();
      expect(store.interruptedAtOpen).toBe(1);
      expect(store.getSession(session.id)?.title).toBe("Old chat");
      expect(store.listMessages(session.id).map((m) => [m.role, m.content, m.status])).toEqual([
        ["user", "what is a quokka", "complete"],
        ["assistant", "a marsupial", "complete"],
        ["assistant", "half a wombat", "interrupted"],
      ]);
      expect(store.search("marsupial").map((hit) => hit.id)).toEqual([session.id]);
      expect(store.search("wombat").map((hit) => hit.id)).toEqual([session.id]);
      // And a reply streams the new way on the migrated file.
      const reply = store.appendMessage({ sessionId: session.id, role: "assistant", status: "streaming" });
      store.appendDelta(reply.id, opening);
      store.appendDelta(reply.id, "new numbat");
      expect(onDisk(file, reply.id).chunks).toBe(1);
      expect(store.updateMessage(reply.id, { status: "complete" }).content).toBe(`${opening}new numbat`);
      expect(store.search("numbat").map((hit) => hit.id)).toEqual([session.id]);
    } finally {
      store.close();
    }
  });
});
