import type { Database, Statement } from "better-sqlite3";

/** Up to this many characters a streaming reply's row is appended to in place (about a page). */
export const ROW_APPEND_LIMIT = 2048;

/**
 * A long streaming reply's text as it arrives: past its first ~2K characters (kept in its row),
 * each batch of deltas is one row of `message_chunks` (migration 5), and the reply's own row is
 * left alone until the reply ends, when its chunks are folded into it. Why: appending to the row
 * itself (`content = content || ?`) rewrites the whole text so far on every batch, O(n²) over a
 * reply; a 270K-character reply rewrote ~17 MB and ran several WAL checkpoints (with their
 * fsyncs) while it streamed. A chunk is one small insert.
 *
 * Invariant: only a message whose status is `streaming` has chunks (and only replies get
 * deltas). Every way out of `streaming` goes through `MessageTable`, which folds (or drops, when
 * the text is replaced whole) the chunks in the same transaction as the status change; a crash
 * leaves them for `foldAll` at the next open. Durability is as before: a batch is committed
 * before its text is shown.
 */
export class MessageChunks {
  private readonly appendToRowStmt: Statement<[string, string]>;
  private readonly appendStmt: Statement<[string, string]>;
  private readonly foldStmt: Statement<[string]>;
  private readonly dropStmt: Statement<[string]>;
  private readonly foldAllStmt: Statement<[]>;
  private readonly dropAllStmt: Statement<[]>;

  constructor(db: Database) {
    // Only a reply still streaming grows: a delta that arrives after a stop is dropped. While the
    // row is small and has no chunks, the text goes into it: a one-page rewrite costs less than an
    // insert (table, index, foreign key), and a short reply never needs a chunk.
    this.appendToRowStmt = db.prepare(
      `UPDATE messages SET content = content || ?
       WHERE id = ? AND status = 'streaming' AND length(content) < ${ROW_APPEND_LIMIT}
         AND NOT EXISTS (SELECT 1 FROM message_chunks c WHERE c.message_row = messages.row)`,
    );
    this.appendStmt = db.prepare(
      `INSERT INTO message_chunks (message_row, text)
       SELECT row, ? FROM messages WHERE id = ? AND status = 'streaming'`,
    );
    this.foldStmt = db.prepare(
      `UPDATE messages SET content = content || ${chunksOf("messages.row")}
       WHERE id = ? AND EXISTS (SELECT 1 FROM message_chunks c WHERE c.message_row = messages.row)`,
    );
    this.dropStmt = db.prepare(
      "DELETE FROM message_chunks WHERE message_row = (SELECT row FROM messages WHERE id = ?)",
    );
    this.foldAllStmt = db.prepare(
      `UPDATE messages SET content = content || ${chunksOf("messages.row")}
       WHERE row IN (SELECT DISTINCT message_row FROM message_chunks)`,
    );
    this.dropAllStmt = db.prepare("DELETE FROM message_chunks");
  }

  /** True when appended; false when the message is no longer streaming (or does not exist). */
  append(id: string, text: string): boolean {
    if (this.appendToRowStmt.run(text, id).changes > 0) return true;
    return this.appendStmt.run(text, id).changes > 0;
  }

  /**
   * Moves the message's chunks into its row. The caller runs it in a transaction, before the
   * status change that ends the stream (so the search index sees the whole text).
   */
  fold(id: string): void {
    if (this.foldStmt.run(id).changes > 0) this.dropStmt.run(id);
  }

  /** Drops the message's chunks: its text is being replaced whole. */
  drop(id: string): void {
    this.dropStmt.run(id);
  }

  /** After a crash: every message's chunks into its row (the caller's transaction). */
  foldAll(): void {
    if (this.foldAllStmt.run().changes > 0) this.dropAllStmt.run();
  }
}

/** SQL for the text of a message's chunks, in the order they came ('' when it has none). */
export function chunksOf(messageRow: string): string {
  return `coalesce((SELECT group_concat(c.text, '' ORDER BY c.row) FROM message_chunks c WHERE c.message_row = ${messageRow}), '')`;
}

/** SQL for a message's whole text: a streaming message's row plus its chunks. */
export function contentOf(alias: string): string {
  return `CASE WHEN ${alias}.status = 'streaming' THEN ${alias}.content || ${chunksOf(`${alias}.row`)} ELSE ${alias}.content END`;
}

/** Migration 5: the chunks, in the order they came (`row`, kept by VACUUM as an INTEGER PRIMARY KEY). */
export const messageChunksSchema = `
CREATE TABLE message_chunks (
  row         INTEGER PRIMARY KEY,
  message_row INTEGER NOT NULL REFERENCES messages (row) ON DELETE CASCADE,
  text        TEXT    NOT NULL
);
CREATE INDEX message_chunks_by_message ON message_chunks (message_row);
`;
