/**
 * The person's messages that are durable but not in the store yet: one JSON line each, appended to
 * a file beside the SQLite file. Why: a turn makes the person's message durable while its request
 * is in flight, and an append is one `write` (~10–20 µs) where a store commit costs ~100–250 µs of
 * the main thread, time a provider on the same machine waits for before it can answer. The
 * message is inserted into the store with the reply's first text (or before any other write); the
 * file is emptied once nothing in it is outstanding. After a crash in between, the store inserts
 * what is left at its next open (`replay`).
 *
 * As durable as a store commit here (SQLite's WAL with `synchronous = NORMAL` does not sync each
 * commit either): both survive the app's crash, neither is synced against a power cut.
 */
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, writeSync } from "node:fs";
import type { MessageMeta } from "../types.js";

/** What the store needs to insert a logged message: its input and the identity clients know. */
export interface PendingMessage {
  sessionId: string;
  turnId: string | null;
  content: string;
  meta: MessageMeta;
  keep: { id: string; createdAt: number };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isPendingMessage = (value: unknown): value is PendingMessage =>
  isRecord(value) &&
  typeof value.sessionId === "string" &&
  (value.turnId === null || typeof value.turnId === "string") &&
  typeof value.content === "string" &&
  isRecord(value.meta) &&
  isRecord(value.keep) &&
  typeof value.keep.id === "string" &&
  typeof value.keep.createdAt === "number";

export class PendingMessageLog {
  private fd: number | null = null;
  /** Lines appended and not yet inserted (or discarded), by message id. */
  private readonly outstanding = new Map<string, string>();
  /** Whether the file may hold lines (so an empty log is not truncated on every insert). */
  private dirty = false;

  constructor(readonly file: string) {}

  /** Durable once this returns; throws what the file system threw. */
  append(message: PendingMessage): void {
    const line = `${JSON.stringify(message)}\n`;
    this.fd ??= openSync(this.file, "a");
    this.dirty = true;
    writeSync(this.fd, line);
    this.outstanding.set(message.keep.id, line);
  }

  /** The message is in the store now: its line is no longer needed. */
  written(messageId: string): void {
    if (!this.outstanding.delete(messageId)) return;
    if (this.outstanding.size === 0) this.empty();
  }

  /**
   * The message was reported not saved: its line goes, so no later open inserts it. The others'
   * lines are written again (the file holds only what is outstanding).
   */
  discard(messageId: string): void {
    if (!this.outstanding.delete(messageId)) return;
    this.empty();
    if (this.outstanding.size === 0 || this.fd === null) return;
    this.dirty = true;
    writeSync(this.fd, [...this.outstanding.values()].join(""));
  }

  /**
   * At the store's open: hands every logged message to `insert` (which skips those already in the
   * store), then empties the file. A torn last line (a crash mid-append) or a line that is not a
   * message is skipped: it was never reported saved. Returns how many were handed over.
   */
  replay(insert: (message: PendingMessage) => void): number {
    if (!existsSync(this.file)) return 0;
    let handed = 0;
    for (const line of readFileSync(this.file, "utf8").split("\n")) {
      if (!line) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        continue;
      }
      if (!isPendingMessage(parsed)) continue;
      insert(parsed);
      handed += 1;
    }
    this.dirty = true;
    this.empty();
    return handed;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private empty(): void {
    if (!this.dirty) return;
    this.fd ??= openSync(this.file, "a");
    ftruncateSync(this.fd, 0);
    this.dirty = false;
  }
}
