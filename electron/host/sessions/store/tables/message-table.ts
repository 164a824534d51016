import { randomUUID } from "node:crypto";
import type { Database, Statement } from "better-sqlite3";
import type { Clock } from "../../../clock.js";
import { contentOf, MessageChunks } from "./message-chunks.js";
import { MAX_SESSION_ROW, MESSAGES_PER_SESSION, messageKey, sessionKeyRange } from "./message-key.js";
import type { SearchTerms } from "../text/search-terms.js";
import { SessionInputError } from "../session-errors.js";
import type {
  MessageMeta,
  MessagePatch,
  MessageRecord,
  MessageRole,
  MessageStatus,
  NewMessage,
} from "../types.js";

type MessageRow = {
  id: string;
  session_id: string;
  turn_id: string | null;
  role: MessageRole;
  content: string;
  status: MessageStatus;
  meta: string;
  created_at: number;
  seq: number;
};

type InsertParams = [
  number,
  string,
  number,
  number,
  string | null,
  MessageRole,
  string,
  MessageStatus,
  string,
  number,
];

// A streaming message's text is its row plus its chunks (message-chunks.ts).
const rowColumns = `m.id, s.id AS session_id, m.turn_id, m.role, ${contentOf("m")} AS content, m.status, m.meta, m.created_at, m.seq`;

/** The messages table: a session's transcript in `seq` order. Statements are prepared once. */
export class MessageTable {
  private readonly lastSeqStmt: Statement<[number, number], { seq: number }>;
  private readonly insertStmt: Statement<InsertParams>;
  private readonly byIdStmt: Statement<[string], MessageRow>;
  private readonly sessionRowStmt: Statement<[string], { session_row: number }>;
  private readonly listStmt: Statement<[number, number], MessageRow>;
  private readonly chunks: MessageChunks;
  private readonly updateStmt: Statement<
    [{ id: string; content: string | null; status: MessageStatus | null; meta: string | null }]
  >;
  private readonly interruptStmt: Statement<[]>;
  private readonly settleUserStmt: Statement<[string]>;
  private readonly recoverUsersStmt: Statement<[]>;
  private readonly notSentStmt: Statement<[]>;
  private readonly indexStmt: Statement<[number, string]>;
  private readonly deleteStmt: Statement<[string]>;

  /** `terms` learns the words of every message this table indexes (directly or by the update trigger). */
  constructor(
    db: Database,
    private readonly clock: Clock,
    private readonly terms: SearchTerms,
  ) {
    this.lastSeqStmt = db.prepare(
      "SELECT seq FROM messages WHERE row BETWEEN ? AND ? ORDER BY row DESC LIMIT 1",
    );
    this.insertStmt = db.prepare(
      `INSERT INTO messages (row, id, session_row, seq, turn_id, role, content, status, meta, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.byIdStmt = db.prepare(
      `SELECT ${rowColumns} FROM messages m JOIN sessions s ON s.row = m.session_row WHERE m.id = ?`,
    );
    this.sessionRowStmt = db.prepare("SELECT session_row FROM messages WHERE id = ?");
    this.listStmt = db.prepare(
      `SELECT ${rowColumns} FROM messages m JOIN sessions s ON s.row = m.session_row
       WHERE m.row BETWEEN ? AND ? ORDER BY m.row`,
    );
    this.chunks = new MessageChunks(db);
    this.updateStmt = db.prepare(
      `UPDATE messages SET
         content = coalesce(:content, content),
         status = coalesce(:status, status),
         meta = CASE WHEN :meta IS NULL THEN meta ELSE json_patch(meta, :meta) END
       WHERE id = :id`,
    );
    this.interruptStmt = db.prepare(
      "UPDATE messages SET status = 'interrupted' WHERE status = 'streaming' AND role <> 'user'",
    );
    // A person's message stored with its indexing deferred (see `append`) is settled as complete;
    // the update trigger indexes it.
    this.settleUserStmt = db.prepare(
      "UPDATE messages SET status = 'complete' WHERE id = ? AND role = 'user' AND status = 'streaming'",
    );
    this.recoverUsersStmt = db.prepare(
      "UPDATE messages SET status = 'complete' WHERE status = 'streaming' AND role = 'user'",
    );
    // The same expression as the partial index `messages_pending` (migration 2), so it is used.
    this.notSentStmt = db.prepare(
      `UPDATE messages SET status = 'interrupted', meta = json_patch(meta, '{"pending":null,"notSent":true}')
       WHERE json_extract(meta, '$.pending') IS NOT NULL`,
    );
    this.deleteStmt = db.prepare("DELETE FROM messages WHERE id = ?");
    this.indexStmt = db.prepare("INSERT INTO messages_fts (rowid, content) VALUES (?, ?)");
  }

  /**
   * Appends at the end of the session's transcript. The caller runs it in a transaction.
   * `indexLater` (a person's message on the way to the model): the row is stored as `streaming`,
   * which the search index skips, and `settleUser` completes it; a crash in between is settled at
   * the next open. Why: indexing costs more than the insert and need not delay the first token.
   */
  append(
    sessionRow: number,
    sessionId: string,
    input: NewMessage,
    keep?: { id: string; createdAt: number },
    indexLater = false,
  ): MessageRecord {
    const seq = this.nextSeq(sessionRow);
    if (seq >= MESSAGES_PER_SESSION || sessionRow > MAX_SESSION_ROW) {
      throw new SessionInputError(
        `Session ${sessionId} cannot take more messages (a session keeps up to ${MESSAGES_PER_SESSION}); start a new chat.`,
      );
    }
    // Serialised once: the row stores this text and the record holds what reading it back gives.
    const metaJson = input.meta ? JSON.stringify(input.meta) : "{}";
    const record: MessageRecord = {
      id: keep?.id ?? randomUUID(),
      sessionId,
      turnId: input.turnId ?? null,
      role: input.role,
      content: input.content ?? "",
      status: input.status ?? "complete",
      meta: JSON.parse(metaJson) as MessageMeta,
      createdAt: keep?.createdAt ?? this.clock.now(),
      seq,
    };
    const key = messageKey(sessionRow, seq);
    this.insertStmt.run(
      key,
      record.id,
      sessionRow,
      seq,
      record.turnId,
      record.role,
      record.content,
      indexLater ? "streaming" : record.status,
      metaJson,
      record.createdAt,
    );
    if (!indexLater && isSearchable(record.role, record.status)) {
      this.indexStmt.run(key, record.content);
      this.terms.add(record.content);
    }
    return record;
  }

  nextSeq(sessionRow: number): number {
    const range = sessionKeyRange(sessionRow);
    const last = this.lastSeqStmt.get(range.first, range.last);
    return last ? last.seq + 1 : 0;
  }

  get(id: string): MessageRecord | undefined {
    const row = this.byIdStmt.get(id);
    return row ? toRecord(row) : undefined;
  }

  sessionRowOf(id: string): number | undefined {
    return this.sessionRowStmt.get(id)?.session_row;
  }

  list(sessionRow: number): MessageRecord[] {
    const range = sessionKeyRange(sessionRow);
    return this.listStmt.all(range.first, range.last).map(toRecord);
  }

  /** True when appended; false when the message is no longer streaming (or does not exist). */
  appendDelta(id: string, text: string): boolean {
    return this.chunks.append(id, text);
  }

  /** False when no such message exists. The caller runs it in a transaction. */
  update(id: string, patch: MessagePatch): boolean {
    // A streaming reply's chunks go before its row changes: replaced by new content, or folded in
    // when the stream ends (the search index must see the whole text).
    if (patch.content !== undefined) this.chunks.drop(id);
    else if (patch.status !== undefined && patch.status !== "streaming") this.chunks.fold(id);
    const meta = patch.meta === undefined ? null : JSON.stringify(patch.meta);
    const changes = this.updateStmt.run({
      id,
      content: patch.content ?? null,
      status: patch.status ?? null,
      meta,
    }).changes;
    this.terms.drain();
    return changes > 0;
  }

  /** False when no such message exists. */
  delete(id: string): boolean {
    return this.deleteStmt.run(id).changes > 0;
  }

  /** True when the message was waiting for `settleUser` (and now is complete and searchable). */
  settleUser(id: string): boolean {
    const settled = this.settleUserStmt.run(id).changes > 0;
    this.terms.drain();
    return settled;
  }

  /**
   * After a crash: a reply left `streaming` keeps its partial text (its chunks folded into its row)
   * and becomes `interrupted`; a person's message whose indexing was deferred becomes complete.
   * Returns the replies marked. The caller runs it in a transaction.
   */
  markStreamingAsInterrupted(): number {
    this.chunks.foldAll();
    this.recoverUsersStmt.run();
    const interrupted = this.interruptStmt.run().changes;
    this.terms.drain();
    return interrupted;
  }

  /**
   * After a restart: messages that were still waiting for their turn (queued, steers not taken in)
   * never reached the model. They become `interrupted` with `notSent: true` (and no `pending`), so
   * the transcript shows them as not sent; the request builder keeps them from the model.
   */
  markPendingAsNotSent(): number {
    const marked = this.notSentStmt.run().changes;
    this.terms.drain();
    return marked;
  }
}

/**
 * Finished person and assistant text is searchable; tool output and notices are noise, and a
 * reply still streaming is indexed when it ends. The update/delete triggers in migrations.ts
 * apply the same rule.
 */
function isSearchable(role: MessageRole, status: MessageStatus): boolean {
  return (role === "user" || role === "assistant") && status !== "streaming";
}

function toRecord(row: MessageRow): MessageRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    role: row.role,
    content: row.content,
    status: row.status,
    meta: JSON.parse(row.meta) as MessageMeta,
    createdAt: row.created_at,
    seq: row.seq,
  };
}
