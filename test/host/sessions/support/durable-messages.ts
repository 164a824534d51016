/**
 * Where a person's message is durable, read the way the next open of the store reads it: the
 * store's rows, and the pending log's lines (pending-log.ts) that a crash would leave to insert.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";

/** The person's messages' texts, stored (in order) and then still only logged. */
export function durableUserMessages(home: string): { stored: string[]; logged: string[] } {
  const file = join(home, "sessions.sqlite");
  const db = new Database(file, { readonly: true });
  let stored: string[];
  try {
    stored = db
      .prepare("SELECT content FROM messages WHERE role = 'user' ORDER BY row")
      .pluck()
      .all() as string[];
  } finally {
    db.close();
  }
  const log = `${file}-pending`;
  const logged = existsSync(log)
    ? readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { content: string }).content)
    : [];
  return { stored, logged };
}
