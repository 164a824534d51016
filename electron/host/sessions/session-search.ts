import type { Database, Statement } from "better-sqlite3";
import { parseSearchQuery, prefixToken, toMatchExpression, type ParsedQuery } from "./fts-query.js";
import { MessageHits } from "./message-hits.js";
import { sessionKeyRange } from "./message-key.js";
import { buildSnippet } from "./search-snippet.js";
import { summaryColumns as sessionColumns, toSummary, type SessionRow } from "./session-table.js";
import type { SearchHit } from "./types.js";

export type SearchOptions = { limit?: number };

export const DEFAULT_SEARCH_LIMIT = 50;
const MAX_SEARCH_LIMIT = 500;

// Matching messages are read newest-created session first, at first this many per session asked
// for (at least MIN_HIT_WINDOW): enough to cover `limit` sessions when matches are dense, without
// paying for a thousand matches of an AND query when fifty sessions are shown.
const HIT_WINDOW_PER_RESULT = 2;
const MIN_HIT_WINDOW = 64;
// The messages index keeps prefixes of these lengths (migrations.ts: prefix = '2 3').
const LONGEST_INDEXED_PREFIX = 3;
// A longer typed prefix is rewritten as an OR of at most this many whole words (an OR of exact
// words is read lazily; a prefix beyond the prefix indexes reads every completion's whole doclist).
const MAX_COMPLETIONS = 64;
// Costs in rows of the newest-first walk (which reads session rows a page at a time): sorting one
// candidate session by `updated_at`, and reading one match (a single word, or several words that
// must meet in one message, where the index leapfrogs through every word's doclist).
const SORT_COST_IN_WALK_ROWS = 16;
const READ_COST_IN_WALK_ROWS = { oneWord: 3, severalWords: 50 };
// The walk reads session rows in pages, the first this big, each next one twice the last.
const FIRST_WALK_PAGE = 128;

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
  private readonly newestRowsStmt: Statement<[number], number>;
  private readonly newerRowsStmt: Statement<[number, number, number], number>;
  private readonly updatedAtStmt: Statement<[number], number>;
  private readonly rowSpanStmt: Statement<[], { newest: number | null; oldest: number | null }>;
  private readonly sessionsStmt: Statement<[string], SessionRow>;
  private readonly candidatesStmt: Statement<[string, number], SessionRow>;
  private readonly messagesStmt: Statement<[string], { row: number; id: string; content: string }>;
  private readonly completionsStmt: Statement<[string, string, number], string>;

  private readonly hitWindow: number | undefined;

  /** `hitWindow`: how many matches a read takes at first (tests make it tiny to exercise the walk). */
  constructor(db: Database, options: { hitWindow?: number } = {}) {
    this.hitWindow = options.hitWindow;
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
    // The walk reads pages of one plucked column: about three times faster per row than iterate().
    this.newestRowsStmt = db
      .prepare<[number], number>("SELECT row FROM sessions ORDER BY updated_at DESC, row DESC LIMIT ?")
      .pluck();
    this.newerRowsStmt = db
      .prepare<[number, number, number], number>(
        `SELECT row FROM sessions WHERE (updated_at, row) < (?, ?)
         ORDER BY updated_at DESC, row DESC LIMIT ?`,
      )
      .pluck();
    this.updatedAtStmt = db
      .prepare<[number], number>("SELECT updated_at FROM sessions WHERE row = ?")
      .pluck();
    // Rows are never reused, so the span of row ids bounds the number of sessions cheaply. Each
    // bound is its own subquery: one SELECT with both min() and max() scans the whole table.
    this.rowSpanStmt = db.prepare(
      "SELECT (SELECT max(row) FROM sessions) AS newest, (SELECT min(row) FROM sessions) AS oldest",
    );
    this.sessionsStmt = db.prepare(
      `SELECT ${sessionColumns} FROM sessions WHERE row IN (SELECT value FROM json_each(?))`,
    );
    this.candidatesStmt = db.prepare(
      `SELECT ${sessionColumns} FROM sessions WHERE row IN (SELECT value FROM json_each(?))
       ORDER BY updated_at DESC, row DESC LIMIT ?`,
    );
    this.messagesStmt = db.prepare(
      "SELECT row, id, content FROM messages WHERE row IN (SELECT value FROM json_each(?))",
    );
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
    const window = this.hitWindow ?? Math.max(MIN_HIT_WINDOW, HIT_WINDOW_PER_RESULT * limit);
    const hits = new MessageHits(this.hitsAfterStmt, message.match, window);
    const plan: PlanInputs = {
      limit,
      titleMatches: titleRows.size,
      span: this.rowSpanStmt.get()!,
      readCost:
        parsed.terms.length > 1 ? READ_COST_IN_WALK_ROWS.severalWords : READ_COST_IN_WALK_ROWS.oneWord,
    };
    // Sorting needs every match read; read on only while sorting still looks cheaper.
    while (!hits.complete && sortIsCheaper(hits, plan)) hits.readMore();
    const found =
      hits.complete && sortIsCheaper(hits, plan)
        ? this.sortCandidates(hits, titleRows, limit)
        : this.walkNewest(hits, message, titleRows, limit);
    const messages = this.messagesOf(found);
    return found.map(({ session, messageRow }) => {
      const message = messageRow === null ? undefined : messages.get(messageRow);
      return {
        ...toSummary(session),
        snippet: message ? { messageId: message.id, ...buildSnippet(message.content, parsed.terms) } : null,
      };
    });
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
    for (const row of this.newestSessionRows()) {
      let messageRow = hits.firstMatch.get(row) ?? null;
      if (messageRow === null && !hits.knows(row)) {
        // Reading on is cheap while the gap is small; an old chat far behind is asked directly.
        messageRow =
          message.seekable && hits.hitsBefore(row) > 4 * hits.firstWindow
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

  /** Session rows newest-updated first, read a page at a time (each twice the last). */
  private *newestSessionRows(): Generator<number> {
    let size = FIRST_WALK_PAGE;
    let page = this.newestRowsStmt.all(size);
    for (;;) {
      yield* page;
      const last = page[page.length - 1];
      if (page.length < size || last === undefined) return;
      const updatedAt = this.updatedAtStmt.get(last);
      if (updatedAt === undefined) return;
      size *= 2;
      page = this.newerRowsStmt.all(updatedAt, last, size);
    }
  }

  /** The messages whose excerpts are shown, read in one statement. */
  private messagesOf(
    found: readonly { messageRow: number | null }[],
  ): Map<number, { id: string; content: string }> {
    const rows = found.flatMap(({ messageRow }) => (messageRow === null ? [] : [messageRow]));
    if (rows.length === 0) return new Map();
    return new Map(this.messagesStmt.all(JSON.stringify(rows)).map((m) => [m.row, m]));
  }
}

type PlanInputs = {
  limit: number;
  titleMatches: number;
  /** The newest and oldest session rows (null when there are none). */
  span: { newest: number | null; oldest: number | null };
  readCost: number;
};

/**
 * Whether sorting every candidate session beats walking sessions newest-updated first, in rows of
 * the walk. From what was read so far (the newest-created sessions), the matches and candidate
 * sessions of the whole store are estimated. The walk visits about `limit / density` sessions and
 * reads matches only that far; a sort reads every match and sorts every candidate.
 */
function sortIsCheaper(hits: MessageHits, plan: PlanInputs): boolean {
  const { newest, oldest } = plan.span;
  if (newest === null || oldest === null) return true;
  const sessions = newest - oldest + 1;
  const share = hits.complete ? 1 : Math.min(1, Math.max(1, hits.sessionsCovered(newest)) / sessions);
  const matches = hits.hitsRead / share;
  const candidates = Math.max(1, hits.firstMatch.size / share + plan.titleMatches);
  const walkMatches = Math.min(matches, (matches * plan.limit) / candidates);
  const walk =
    (plan.limit * sessions) / candidates + plan.readCost * Math.max(0, walkMatches - hits.hitsRead);
  const sort = SORT_COST_IN_WALK_ROWS * candidates + plan.readCost * (matches - hits.hitsRead);
  return sort < walk;
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_SEARCH_LIMIT;
  return Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.floor(limit)));
}
