import type { Database, Statement } from "better-sqlite3";
import {
  parseSearchQuery,
  prefixToken,
  toMatchExpression,
  type ParsedQuery,
  type SearchTerm,
} from "./fts-query.js";
import { sessionKeyRange, sessionRowOfKey } from "./message-key.js";
import { buildSnippet } from "./search-snippet.js";
import { summaryColumns as sessionColumns, toSummary, type SessionRow } from "./session-table.js";
import type { SearchHit } from "./types.js";

export type SearchOptions = { limit?: number };

export const DEFAULT_SEARCH_LIMIT = 50;
const MAX_SEARCH_LIMIT = 500;

// Matching messages are read newest-created session first, this many at a time.
const HIT_WINDOW = 1024;
// The messages index keeps prefixes of these lengths (migrations.ts: prefix = '2 3').
const LONGEST_INDEXED_PREFIX = 3;
// A longer typed prefix is rewritten as an OR of at most this many whole words.
const MAX_COMPLETIONS = 16;
// Sorting one candidate session by `updated_at` costs about this many rows of the newest-first walk.
const SORT_COST_IN_WALK_ROWS = 8;

type Found = { row: number; messageRow: number | null };
type MessageMatch = { match: string; seekable: boolean };

/**
 * Full-text search over session titles and finished message text. Sessions come newest-updated
 * first, each with an excerpt of its first matching message.
 *
 * Message keys put newer sessions first (message-key.ts), so matching messages are read in windows,
 * newest-created session first, and every session newer than the last one read is known to match
 * or not. Sessions are then walked newest-updated first through their index, each looked up in
 * what was read; a session older than that (an old chat that was resumed) is asked of the index
 * directly, or the window is extended. The walk stops at `limit`, so a word in most chats costs a
 * few hundred lookups, not a sort of every chat that has it. A rare word whose matches were all read
 * and are few is cheaper to sort than to find by walking, so those are sorted.
 */
export class SessionSearch {
  private readonly hitsAfterStmt: Statement<[string, number, number], number>;
  private readonly titleHitsStmt: Statement<[string], number>;
  private readonly firstHitFromStmt: Statement<[string, number], number>;
  private readonly newestRowsStmt: Statement<[], number>;
  private readonly sessionCountStmt: Statement<[], number>;
  private readonly sessionsStmt: Statement<[string], SessionRow>;
  private readonly candidatesStmt: Statement<[string, number], SessionRow>;
  private readonly messageStmt: Statement<[number], { id: string; content: string }>;
  private readonly completionsStmt: Statement<[string, string, number], string>;

  private readonly hitWindow: number;

  /** `hitWindow`: how many matches a read takes at first (tests make it tiny to exercise the walk). */
  constructor(db: Database, options: { hitWindow?: number } = {}) {
    this.hitWindow = options.hitWindow ?? HIT_WINDOW;
    // Only the ascending `rowid >`/`>=` forms stop early; an upper bound or DESC order reads the whole doclist.
    this.hitsAfterStmt = db
      .prepare<[string, number, number], number>(
        "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? AND rowid > ? LIMIT ?",
      )
      .pluck();
    this.titleHitsStmt = db
      .prepare<[string], number>("SELECT rowid FROM sessions_fts WHERE sessions_fts MATCH ?")
      .pluck();
    this.firstHitFromStmt = db
      .prepare<[string, number], number>(
        "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? LIMIT 1",
      )
      .pluck();
    this.newestRowsStmt = db
      .prepare<[], number>("SELECT row FROM sessions ORDER BY updated_at DESC, row DESC")
      .pluck();
    // Rows are never reused, so the span of row ids bounds the number of sessions cheaply. Each
    // bound is its own subquery: one SELECT with both min() and max() scans the whole table.
    this.sessionCountStmt = db
      .prepare<[], number>(
        "SELECT coalesce((SELECT max(row) FROM sessions) - (SELECT min(row) FROM sessions) + 1, 0)",
      )
      .pluck();
    this.sessionsStmt = db.prepare(
      `SELECT ${sessionColumns} FROM sessions WHERE row IN (SELECT value FROM json_each(?))`,
    );
    this.candidatesStmt = db.prepare(
      `SELECT ${sessionColumns} FROM sessions WHERE row IN (SELECT value FROM json_each(?))
       ORDER BY updated_at DESC, row DESC LIMIT ?`,
    );
    this.messageStmt = db.prepare("SELECT id, content FROM messages WHERE row = ?");
    this.completionsStmt = db
      .prepare<[string, string, number], string>(
        "SELECT term FROM messages_vocab WHERE term >= ? AND term < ?  LIMIT ?",
      )
      .pluck();
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const parsed = parseSearchQuery(query);
    if (parsed === null) return [];
    const limit = clampLimit(options.limit);
    const titleRows = new Set(this.titleHitsStmt.all(toMatchExpression(parsed)));
    const message = this.messageMatchExpression(parsed);
    const hits = new MessageHits(this.hitsAfterStmt, message.match, this.hitWindow);
    hits.read(this.hitWindow);
    const candidates = hits.firstMatch.size + titleRows.size;
    const found =
      hits.complete &&
      candidates * SORT_COST_IN_WALK_ROWS < (limit * this.sessionCountStmt.get()!) / Math.max(1, candidates)
        ? this.sortCandidates(hits, titleRows, limit)
        : this.walkNewest(hits, message, titleRows, limit);
    return found.map(({ session, messageRow }) => ({
      ...toSummary(session),
      snippet: messageRow === null ? null : this.snippetOf(messageRow, parsed.terms),
    }));
  }

  /**
   * `seekable` is false for a long prefix with too many completions to spell out: each probe of such a query
   * would re-read all their doclists, so it must not be probed session by session.
   */
  private messageMatchExpression(parsed: ParsedQuery): MessageMatch {
    const prefix = prefixToken(parsed);
    if (prefix === null || [...prefix].length <= LONGEST_INDEXED_PREFIX) {
      return { match: toMatchExpression(parsed), seekable: true };
    }
    // The prefix as a whole word is always one option (a word not in the index just matches
    // nothing), and the vocabulary is read from just after it: a vocabulary row counts its word's
    // whole doclist, so a common word typed out in full ("error") would cost a full read of it.
    // Terms are compared as UTF-8 bytes: "\0" sorts right after the prefix, U+10FFFF after every
    // continuation of it.
    const longer = this.completionsStmt.all(`${prefix}\0`, `${prefix}\u{10FFFF}`, MAX_COMPLETIONS);
    return longer.length >= MAX_COMPLETIONS
      ? { match: toMatchExpression(parsed), seekable: false }
      : { match: toMatchExpression(parsed, [prefix, ...longer]), seekable: true };
  }

  /** Every match was read and they are few: sort their sessions. */
  private sortCandidates(
    hits: MessageHits,
    titleRows: Set<number>,
    limit: number,
  ): { session: SessionRow; messageRow: number | null }[] {
    const candidates = new Set([...hits.firstMatch.keys(), ...titleRows]);
    if (candidates.size === 0) return [];
    return this.candidatesStmt
      .all(JSON.stringify([...candidates]), limit)
      .map((session) => ({ session, messageRow: hits.firstMatch.get(session.row) ?? null }));
  }

  /** Sessions newest-updated first, each matched against what was read, until `limit` match. */
  private walkNewest(
    hits: MessageHits,
    message: MessageMatch,
    titleRows: Set<number>,
    limit: number,
  ): { session: SessionRow; messageRow: number | null }[] {
    const found: Found[] = [];
    for (const row of this.newestRowsStmt.iterate()) {
      let messageRow = hits.firstMatch.get(row) ?? null;
      if (messageRow === null && !hits.knows(row)) {
        // Reading on is cheap while the gap is small; an old chat far behind is asked directly.
        messageRow =
          message.seekable && hits.hitsBefore(row) > 4 * this.hitWindow
            ? this.probe(message.match, row)
            : hits.readUntilKnown(row);
      }
      if (messageRow !== null || titleRows.has(row)) {
        found.push({ row, messageRow });
        if (found.length === limit) break;
      }
    }
    if (found.length === 0) return [];
    const sessions = new Map(
      this.sessionsStmt.all(JSON.stringify(found.map((f) => f.row))).map((session) => [session.row, session]),
    );
    return found.flatMap(({ row, messageRow }) => {
      const session = sessions.get(row);
      return session ? [{ session, messageRow }] : [];
    });
  }

  /** The session's first matching message, asked of the index directly. */
  private probe(match: string, sessionRow: number): number | null {
    const range = sessionKeyRange(sessionRow);
    const hit = this.firstHitFromStmt.get(match, range.first);
    return hit !== undefined && hit <= range.last ? hit : null;
  }

  private snippetOf(messageRow: number, terms: readonly SearchTerm[]): SearchHit["snippet"] {
    const message = this.messageStmt.get(messageRow);
    if (!message) return null;
    return { messageId: message.id, ...buildSnippet(message.content, terms) };
  }
}

/**
 * Matching messages read in ascending key order, i.e. newest-created session first. Every session
 * newer than the last one read has had all its matches read, so whether it matches is known.
 */
class MessageHits {
  /** Each session's first matching message, for the sessions read so far. */
  readonly firstMatch = new Map<number, number>();
  complete: boolean;
  private lastKey = 0;
  private firstKey = 0;
  private hitsRead = 0;
  constructor(
    private readonly stmt: Statement<[string, number, number], number>,
    private readonly match: string | null,
    private window: number,
  ) {
    this.complete = match === null;
  }

  read(count: number): void {
    if (this.complete || this.match === null) return;
    const keys = this.stmt.all(this.match, this.lastKey, count + 1);
    const taken = keys.length > count ? keys.slice(0, count) : keys;
    for (const key of taken) {
      const sessionRow = sessionRowOfKey(key);
      if (!this.firstMatch.has(sessionRow)) this.firstMatch.set(sessionRow, key);
    }
    if (taken.length > 0) {
      this.firstKey ||= taken[0]!;
      this.lastKey = taken[taken.length - 1]!;
    }
    this.hitsRead += taken.length;
    this.complete = keys.length <= count;
  }

  /** About how many matches lie between what was read and this older session. */
  hitsBefore(sessionRow: number): number {
    const covered = sessionRowOfKey(this.firstKey) - sessionRowOfKey(this.lastKey) + 1;
    return ((sessionRowOfKey(this.lastKey) - sessionRow) * this.hitsRead) / Math.max(1, covered);
  }

  /** Whether this session's matches (or their absence) are all read. */
  knows(sessionRow: number): boolean {
    return this.complete || (this.lastKey !== 0 && sessionRow >= sessionRowOfKey(this.lastKey));
  }

  /** Reads on, in growing windows, until the session is known; its first match or null. */
  readUntilKnown(sessionRow: number): number | null {
    while (!this.knows(sessionRow)) {
      this.window *= 2;
      this.read(this.window);
    }
    return this.firstMatch.get(sessionRow) ?? null;
  }
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_SEARCH_LIMIT;
  return Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.floor(limit)));
}
