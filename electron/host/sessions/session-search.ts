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

// Up to this many matching messages, collecting them all is cheaper than probing sessions.
const SPARSE_MATCH_LIMIT = 10_000;
// The messages index keeps prefixes of these lengths (migrations.ts: prefix = '2 3').
const LONGEST_INDEXED_PREFIX = 3;
// A longer typed prefix is rewritten as an OR of at most this many whole words.
const MAX_COMPLETIONS = 16;

type Found = { session: SessionRow; messageRow: number | null };

/**
 * Full-text search over session titles and finished message text. Sessions come newest-updated
 * first, each with an excerpt of its first matching message.
 *
 * Two plans, picked by how common the query is. A rare query collects every matching message and
 * orders their sessions. A common one (the word is in most chats) would make that collection
 * large, so instead it walks sessions newest first and asks the index for one match inside each
 * session's key range, stopping at `limit`. Recent sessions have the smallest keys, where those
 * seeks are cheapest (see message-key.ts).
 */
export class SessionSearch {
  private readonly messageHitsStmt: Statement<[string, number], number>;
  private readonly titleHitsStmt: Statement<[string], number>;
  private readonly firstHitFromStmt: Statement<[string, number], number>;
  private readonly newestStmt: Statement<[], SessionRow>;
  private readonly candidatesStmt: Statement<[string, number], SessionRow>;
  private readonly messageStmt: Statement<[number], { id: string; content: string }>;
  private readonly completionsStmt: Statement<[string, string, number], string>;

  constructor(db: Database) {
    this.messageHitsStmt = db
      .prepare<[string, number], number>("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? LIMIT ?")
      .pluck();
    this.titleHitsStmt = db
      .prepare<[string], number>("SELECT rowid FROM sessions_fts WHERE sessions_fts MATCH ?")
      .pluck();
    // Only the ascending `rowid >=` form stops early; an upper bound or DESC order reads the whole doclist.
    this.firstHitFromStmt = db
      .prepare<[string, number], number>(
        "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? LIMIT 1",
      )
      .pluck();
    this.newestStmt = db.prepare(`SELECT ${sessionColumns} FROM sessions ORDER BY updated_at DESC, row DESC`);
    this.candidatesStmt = db.prepare(
      `SELECT ${sessionColumns} FROM sessions WHERE row IN (SELECT value FROM json_each(?))
       ORDER BY updated_at DESC, row DESC LIMIT ?`,
    );
    this.messageStmt = db.prepare("SELECT id, content FROM messages WHERE row = ?");
    this.completionsStmt = db
      .prepare<[string, string, number], string>(
        "SELECT term FROM messages_vocab WHERE term >= ? AND term < ? LIMIT ?",
      )
      .pluck();
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const parsed = parseSearchQuery(query);
    if (parsed === null) return [];
    const limit = clampLimit(options.limit);
    const titleRows = new Set(this.titleHitsStmt.all(toMatchExpression(parsed)));
    const message = this.messageMatchExpression(parsed);
    const someHits = message === null ? [] : this.messageHitsStmt.all(message.match, SPARSE_MATCH_LIMIT + 1);
    let found: Found[] | null = null;
    if (message === null || someHits.length <= SPARSE_MATCH_LIMIT) {
      found = this.orderCandidates(someHits, titleRows, limit);
    } else {
      if (message.seekable) found = this.walkNewest(message.match, titleRows, limit);
      found ??= this.orderCandidates(this.messageHitsStmt.all(message.match, -1), titleRows, limit);
    }
    return found.map(({ session, messageRow }) => ({
      ...toSummary(session),
      snippet: messageRow === null ? null : this.snippetOf(messageRow, parsed.terms),
    }));
  }

  /**
   * Null when no message can match (the typed prefix completes to no indexed word). `seekable` is
   * false for a long prefix with too many completions to spell out: each probe of such a query
   * would re-read all their doclists, so it must not be probed session by session.
   */
  private messageMatchExpression(parsed: ParsedQuery): { match: string; seekable: boolean } | null {
    const prefix = prefixToken(parsed);
    if (prefix === null || [...prefix].length <= LONGEST_INDEXED_PREFIX) {
      return { match: toMatchExpression(parsed), seekable: true };
    }
    // Terms are compared as UTF-8 bytes; U+10FFFF sorts after every continuation of the prefix.
    const completions = this.completionsStmt.all(prefix, `${prefix}\u{10FFFF}`, MAX_COMPLETIONS + 1);
    if (completions.length === 0) return null;
    return completions.length > MAX_COMPLETIONS
      ? { match: toMatchExpression(parsed), seekable: false }
      : { match: toMatchExpression(parsed, completions), seekable: true };
  }

  /** `messageRows` ascend, so the first seen per session is its first match. */
  private orderCandidates(messageRows: number[], titleRows: Set<number>, limit: number): Found[] {
    const firstMatch = new Map<number, number>();
    for (const messageRow of messageRows) {
      const sessionRow = sessionRowOfKey(messageRow);
      if (!firstMatch.has(sessionRow)) firstMatch.set(sessionRow, messageRow);
    }
    const candidates = new Set([...firstMatch.keys(), ...titleRows]);
    if (candidates.size === 0) return [];
    return this.candidatesStmt
      .all(JSON.stringify([...candidates]), limit)
      .map((session) => ({ session, messageRow: firstMatch.get(session.row) ?? null }));
  }

  /** Null when the matches turn out to be too scattered for probing to pay off. */
  private walkNewest(match: string, titleRows: Set<number>, limit: number): Found[] | null {
    const found: Found[] = [];
    const maxProbes = Math.max(100, 4 * limit);
    let probes = 0;
    for (const session of this.newestStmt.iterate()) {
      if (++probes > maxProbes) return null;
      const range = sessionKeyRange(session.row);
      const hit = this.firstHitFromStmt.get(match, range.first);
      const messageRow = hit !== undefined && hit <= range.last ? hit : null;
      if (messageRow !== null || titleRows.has(session.row)) {
        found.push({ session, messageRow });
        if (found.length === limit) break;
      }
    }
    return found;
  }

  private snippetOf(messageRow: number, terms: readonly SearchTerm[]): SearchHit["snippet"] {
    const message = this.messageStmt.get(messageRow);
    if (!message) return null;
    return { messageId: message.id, ...buildSnippet(message.content, terms) };
  }
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_SEARCH_LIMIT;
  return Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.floor(limit)));
}
