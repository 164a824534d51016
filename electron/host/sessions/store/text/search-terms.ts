import type { Database, Statement } from "better-sqlite3";

/**
 * The tokenizer of `messages_fts` (migrations.ts, version 1). The dictionary below must hold the
 * same terms the index holds, so it tokenizes with the same SQLite tokenizer and options.
 */
export const MESSAGES_TOKENIZER = "unicode61 remove_diacritics 2";

// FTS5 keeps at most this many bytes of a token (FTS5_MAX_TOKEN_SIZE in fts5Int.h).
const MAX_TOKEN_BYTES = 32_768;
// In plain ASCII, unicode61 keeps letters and digits as token characters and folds case only.
const ASCII_TOKEN = /[a-z0-9]+/g;
const NON_ASCII = /[^\p{ASCII}]/u;

/** What search needs of a word list: the longer words a typed prefix completes to. */
export type WordCompletions = Pick<SearchTerms, "completions">;

/**
 * Every word of the message index, spelled out in a plain table (`messages_terms`, migration 4), so
 * that a typed prefix is turned into the words it completes to with one short range read.
 * Why not the index's own vocabulary (fts5vocab): finding the word after a word there walks that
 * word's whole doclist page by page (FTS5 keeps no pointer past it), which for a common word is
 * hundreds of pages: slow on a cold disk, and it was most of a search's reads.
 *
 * The table may hold words no message holds any more (deleted messages): a completion that matches
 * nothing changes no result. It must never lack a word the index holds, so every path that indexes
 * text adds its words here in the same transaction: `MessageTable.append` directly, and the
 * index's update trigger through `messages_terms_pending`, which `drain` empties.
 */
export class SearchTerms {
  private readonly addStmt: Statement<[string]>;
  private readonly completionsStmt: Statement<[string, string, number], string>;
  private readonly anyPendingStmt: Statement<[], number>;
  private readonly pendingStmt: Statement<[], { content: string | null }>;
  private readonly clearPendingStmt: Statement<[]>;
  private readonly tokenizeStmt: Statement<[number, string]>;
  private readonly tokenizedStmt: Statement<[], string>;
  private readonly resetTokenizerStmt: Statement<[]>;
  private readonly drainInTransaction: () => void;

  constructor(private readonly db: Database) {
    // A scratch index on this connection (temp: not part of the file) that tokenizes exactly as
    // messages_fts does, for text that is not plain ASCII.
    db.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_tokenizer USING fts5 (
        text, content = '', detail = none, tokenize = '${MESSAGES_TOKENIZER}'
      );
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_tokenizer_terms
        USING fts5vocab (temp, search_tokenizer, 'row');
    `);
    this.tokenizeStmt = db.prepare("INSERT INTO temp.search_tokenizer (rowid, text) VALUES (?, ?)");
    this.tokenizedStmt = db.prepare<[], string>("SELECT term FROM temp.search_tokenizer_terms").pluck();
    this.resetTokenizerStmt = db.prepare(
      "INSERT INTO temp.search_tokenizer (search_tokenizer) VALUES ('delete-all')",
    );
    // One row at a time: a multi-row insert could open a statement savepoint, at which FTS5
    // flushes the message index's pending writes (see SessionStore.atomically).
    this.addStmt = db.prepare("INSERT OR IGNORE INTO messages_terms (term) VALUES (?)");
    this.completionsStmt = db
      .prepare<[string, string, number], string>(
        "SELECT term FROM messages_terms WHERE term > ? AND term < ? ORDER BY term LIMIT ?",
      )
      .pluck();
    this.anyPendingStmt = db.prepare<[], number>("SELECT 1 FROM messages_terms_pending LIMIT 1").pluck();
    this.pendingStmt = db.prepare(
      "SELECT m.content FROM messages_terms_pending p LEFT JOIN messages m ON m.row = p.row",
    );
    this.clearPendingStmt = db.prepare("DELETE FROM messages_terms_pending");
    const drain = db.transaction(() => this.drainPending());
    this.drainInTransaction = () => (db.inTransaction ? this.drainPending() : drain.immediate());
  }

  /** Records the words of text that was just added to the message index. */
  add(text: string): void {
    for (const term of this.termsOf([text])) this.addStmt.run(term);
  }

  /** Records the words of messages the index's update trigger indexed; cheap when there are none. */
  drain(): void {
    if (this.anyPendingStmt.get() === undefined) return;
    this.drainInTransaction();
  }

  /**
   * Up to `max` words that start with `prefix` and are longer, in the index's (UTF-8 byte) order.
   * U+10FFFF sorts after every continuation of the prefix.
   */
  completions(prefix: string, max: number): string[] {
    this.drain();
    return this.completionsStmt.all(prefix, `${prefix}\u{10FFFF}`, max);
  }

  private drainPending(): void {
    // In a write transaction: nothing is queued between this read and the delete.
    // A message deleted since it was queued has no words to add (its content is null).
    const texts = this.pendingStmt.all().flatMap(({ content }) => (content === null ? [] : [content]));
    for (const term of this.termsOf(texts)) this.addStmt.run(term);
    this.clearPendingStmt.run();
  }

  /** The distinct terms messages_fts makes of these texts. */
  private termsOf(texts: readonly string[]): Set<string> {
    const terms = new Set<string>();
    const other: string[] = [];
    for (const text of texts) {
      if (NON_ASCII.test(text)) {
        other.push(text);
        continue;
      }
      for (const token of text.toLowerCase().match(ASCII_TOKEN) ?? []) {
        terms.add(token.length > MAX_TOKEN_BYTES ? token.slice(0, MAX_TOKEN_BYTES) : token);
      }
    }
    if (other.length > 0) {
      other.forEach((text, index) => this.tokenizeStmt.run(index + 1, text));
      for (const term of this.tokenizedStmt.all()) terms.add(term);
      this.resetTokenizerStmt.run();
    }
    return terms;
  }
}
