import type { Database, Statement } from "better-sqlite3";
import { parseSearchQuery, prefixToken, toMatchExpression, type ParsedQuery } from "./fts-query.js";
import { MessageHits } from "./message-hits.js";
import { sessionKeyRange } from "../store/tables/message-key.js";
import { buildSnippet } from "./search-snippet.js";
import { SearchTerms, type WordCompletions } from "../store/text/search-terms.js";
import {
  summaryColumns as sessionColumns,
  toSummary,
  type SessionRow,
} from "../store/tables/session-table.js";
import type { SearchHit } from "../store/types.js";

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
// Costs in rows of the newest-updated index stepped over (about 0.05 µs each): sorting one
// candidate session (looked up by row, then sorted: about 2.5 µs), and reading one match: of a
// single word (about 0.25 µs), or of several words that must meet in one message (several µs: the
// index leapfrogs through every word's doclist, so a match costs the rarest word's doclist up to it).
const SORT_COST_IN_SCANNED_ROWS = 50;
const READ_COST_IN_SCANNED_ROWS = { oneWord: 5, severalWords: 140 };

type Found = { session: SessionRow; messageRow: number | null };
type RowSpan = { newest: number; oldest: number };
type MessageMatch = { match: string; seekable: boolean };

/**
 * Full-text search over session titles and finished message text. Sessions come newest-updated
 * first, each with an excerpt of its first matching message.
 *
 * Message keys put newer sessions first (message-key.ts), so matching messages are read in windows,
 * newest-created session first, and every session at or after the last one read is known to match
 * or not. Once the known sessions hold `limit` candidates, those are sorted by `updated_at`; the
 * last of the first `limit` is the bar. Only an older session updated after the bar (an old chat
 * that was resumed) can still make the page: the index names those, and each is asked of the index
 * directly, or the window is extended. So a word in most chats costs a window of matches and a
 * short sort, and a rare word costs a sort of its few sessions.
 */
export class SessionSearch {
  private readonly hitsAfterStmt: Statement<[string, number, number], number>;
  private readonly titleHitsFromStmt: Statement<[string, number], number>;
  private readonly titleFromStmt: Statement<[string, number], number>;
  private readonly firstHitFromStmt: Statement<[string, number], number>;
  private readonly rowSpanStmt: Statement<[], { newest: number | null; oldest: number | null }>;
  private readonly olderUpdatedAfterStmt: Statement<[number, number, number], number>;
  private readonly sessionsStmt: Statement<[string], SessionRow>;
  private readonly sortedStmt: Statement<[string, number], SessionRow>;
  private readonly scannedStmt: Statement<[string, number], SessionRow>;
  private readonly messagesStmt: Statement<[string], { row: number; id: string; content: string }>;
  private readonly terms: WordCompletions;

  private readonly hitWindow: number | undefined;

  /**
   * `hitWindow`: how many matches a read takes at first (tests make it tiny to exercise every path).
   * `terms`: the store's word list, shared with its writers (one is made when not given).
   */
  constructor(db: Database, options: { hitWindow?: number; terms?: WordCompletions } = {}) {
    this.hitWindow = options.hitWindow;
    this.terms = options.terms ?? new SearchTerms(db);
    // Only the ascending `rowid >`/`>=` forms stop early; an upper bound or DESC order reads the whole doclist.
    this.hitsAfterStmt = db
      .prepare<[string, number, number], number>(
        "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? AND rowid > ? LIMIT ?",
      )
      .pluck();
    // Title matches from a row on (the newest sessions), or whether one session's title matches.
    this.titleHitsFromStmt = db
      .prepare<[string, number], number>(
        "SELECT rowid FROM sessions_fts WHERE sessions_fts MATCH ? AND rowid >= ?",
      )
      .pluck();
    // (`rowid = ?` beside MATCH is not a filter FTS5 honours: it answered another row here.)
    this.titleFromStmt = db
      .prepare<[string, number], number>(
        "SELECT rowid FROM sessions_fts WHERE sessions_fts MATCH ? AND rowid >= ? LIMIT 1",
      )
      .pluck();
    this.firstHitFromStmt = db
      .prepare<[string, number], number>(
        "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? LIMIT 1",
      )
      .pluck();
    // Rows are never reused, so the span of row ids bounds the number of sessions cheaply. Each
    // bound is its own subquery: one SELECT with both min() and max() scans the whole table.
    this.rowSpanStmt = db.prepare(
      "SELECT (SELECT max(row) FROM sessions) AS newest, (SELECT min(row) FROM sessions) AS oldest",
    );
    // Reads the newest-updated index from the top down to the bar only.
    this.olderUpdatedAfterStmt = db
      .prepare<[number, number, number], number>(
        `SELECT row FROM sessions WHERE (updated_at, row) > (?, ?) AND row < ?
         ORDER BY updated_at DESC, row DESC`,
      )
      .pluck();
    this.sessionsStmt = db.prepare(
      `SELECT ${sessionColumns} FROM sessions WHERE row IN (SELECT value FROM json_each(?))`,
    );
    // The first `limit` of a set of sessions, newest-updated first, two ways: a few are looked up
    // and sorted; many are met by stepping down the newest-updated index until `limit` are found.
    this.sortedStmt = db.prepare(
      `SELECT ${sessionColumns} FROM sessions WHERE row IN (SELECT value FROM json_each(?))
       ORDER BY updated_at DESC, row DESC LIMIT ?`,
    );
    this.scannedStmt = db.prepare(
      `SELECT ${sessionColumns} FROM sessions INDEXED BY sessions_by_updated
       WHERE row IN (SELECT value FROM json_each(?)) ORDER BY updated_at DESC, row DESC LIMIT ?`,
    );
    this.messagesStmt = db.prepare(
      "SELECT row, id, content FROM messages WHERE row IN (SELECT value FROM json_each(?))",
    );
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const parsed = parseSearchQuery(query);
    if (parsed === null) return [];
    const limit = clampLimit(options.limit);
    const titleMatch = toMatchExpression(parsed);
    const message = this.messageMatchExpression(parsed);
    const span = this.rowSpanStmt.get()!;
    if (span.newest === null || span.oldest === null) return [];
    const sessions = { newest: span.newest, oldest: span.oldest };
    const window = this.hitWindow ?? Math.max(MIN_HIT_WINDOW, HIT_WINDOW_PER_RESULT * limit);
    const hits = new MessageHits(this.hitsAfterStmt, message.match, window);
    const probed = new Map<number, number | null>();
    const firstMessageOf = (row: number): number | null => {
      const known = hits.firstMatch.get(row) ?? probed.get(row);
      if (known !== undefined) return known;
      if (hits.knows(row)) return null;
      // Reading on is cheap while the gap is small; an old chat far behind is asked directly.
      if (!message.seekable || hits.hitsBefore(row) <= 4 * hits.firstWindow) return hits.readUntilKnown(row);
      const hit = this.probe(message.match, row);
      probed.set(row, hit);
      return hit;
    };

    while (!hits.complete && hits.firstMatch.size < limit) hits.readMore();
    let page = this.knownPage(hits, titleMatch, limit, sessions);
    // Fewer than `limit` known (only if a candidate vanished meanwhile): then every match is read.
    if (!hits.complete && page.length < limit) hits.readRest();
    const bar = page[page.length - 1];
    if (!hits.complete && bar && this.cheaperToReadAll(hits, bar.row, sessions, parsed.terms.length))
      hits.readRest();
    if (hits.complete) page = this.knownPage(hits, titleMatch, limit, sessions);
    else if (bar) {
      // Older sessions updated after the bar, unknown until now: each is matched and may join the page.
      const joining = this.olderUpdatedAfterStmt
        .all(bar.updated_at, bar.row, hits.knownFromRow())
        .filter((row) => firstMessageOf(row) !== null || this.titleFromStmt.get(titleMatch, row) === row);
      if (joining.length > 0) {
        page = [...page, ...this.sessionsStmt.all(JSON.stringify(joining))]
          .sort((a, b) => b.updated_at - a.updated_at || b.row - a.row)
          .slice(0, limit);
      }
    }
    const found: Found[] = page.map((session) => ({ session, messageRow: firstMessageOf(session.row) }));
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
   * The first `limit` sessions known to match, newest-updated first: those with a match read, and
   * the title matches among the known sessions (the newest rows; every row once all is read).
   */
  private knownPage(hits: MessageHits, titleMatch: string, limit: number, sessions: RowSpan): SessionRow[] {
    const rows = [...hits.firstMatch.keys()];
    const from = hits.complete ? sessions.oldest : hits.knownFromRow();
    for (const row of this.titleHitsFromStmt.all(titleMatch, from)) {
      if (!hits.firstMatch.has(row)) rows.push(row);
    }
    return this.firstSessions(rows, limit, sessions.newest - sessions.oldest + 1);
  }

  /**
   * Whether reading the rest of the matches (and sorting their sessions) costs less than stepping
   * down the newest-updated index to the bar, about as many rows as were created after it.
   */
  private cheaperToReadAll(hits: MessageHits, barRow: number, sessions: RowSpan, words: number): boolean {
    const knownFrom = hits.knownFromRow();
    const unread =
      (hits.hitsRead * (knownFrom - sessions.oldest)) / Math.max(1, sessions.newest - knownFrom + 1);
    const perMatch =
      (words > 1 ? READ_COST_IN_SCANNED_ROWS.severalWords : READ_COST_IN_SCANNED_ROWS.oneWord) +
      SORT_COST_IN_SCANNED_ROWS;
    return unread * perMatch < sessions.newest - barRow + 1;
  }

  /** The first `limit` of these sessions, newest-updated first. */
  private firstSessions(rows: readonly number[], limit: number, sessions: number): SessionRow[] {
    if (rows.length === 0) return [];
    // Stepping down the index meets `limit` of them after about limit / density rows.
    const sort = rows.length * SORT_COST_IN_SCANNED_ROWS < (limit * sessions) / rows.length;
    return (sort ? this.sortedStmt : this.scannedStmt).all(JSON.stringify(rows), limit);
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
    // nothing), with the longer words it completes to (search-terms.ts).
    const longer = this.terms.completions(prefix, MAX_COMPLETIONS);
    return longer.length >= MAX_COMPLETIONS
      ? { match: toMatchExpression(parsed), seekable: false }
      : { match: toMatchExpression(parsed, [prefix, ...longer]), seekable: true };
  }

  /** The session's first matching message, asked of the index directly. */
  private probe(match: string, sessionRow: number): number | null {
    const range = sessionKeyRange(sessionRow);
    const hit = this.firstHitFromStmt.get(match, range.first);
    return hit !== undefined && hit <= range.last ? hit : null;
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

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_SEARCH_LIMIT;
  return Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.floor(limit)));
}
