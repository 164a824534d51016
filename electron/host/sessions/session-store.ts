import type { Database } from "better-sqlite3";
import type { Clock } from "../clock.js";
import { MessageTable } from "./message-table.js";
import { openSessionDatabase } from "./open-database.js";
import { PendingMessageLog, type PendingMessage } from "./pending-log.js";
import { SessionSearch, type SearchOptions } from "./session-search.js";
import { SearchTerms } from "./search-terms.js";
import { prewarmBtrees, searchPrewarmPlan } from "./search-prewarm.js";
import { SessionStoreError, translateSqliteError } from "./session-store-error.js";
import { SessionTable } from "./session-table.js";
import type {
  SessionSnapshot,
  MessagePatch,
  MessageRecord,
  NewMessage,
  NewSession,
  SearchHit,
  SessionRecord,
  SessionSummary,
  TitleState,
  UsageEntry,
  UsageRow,
} from "./types.js";
import { UsageLedger } from "./usage-ledger.js";
import { SessionInputError } from "./session-errors.js";

export type SessionStoreOptions = {
  /** The SQLite file; created (with its folder) when missing. */
  file: string;
  clock: Clock;
  /** How long a write waits for another connection's lock before failing with `store_locked`. */
  busyTimeoutMs?: number;
};

export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

/** The identity a message keeps when it is written after clients were told about it. */
export type KeptIdentity = { id: string; createdAt: number };

/**
 * The persistent store of sessions, their messages and their usage (docs/contract.md §9.1), on one SQLite file.
 * Synchronous by design (better-sqlite3): every call is a short local transaction. Every failure is
 * a `SessionStoreError`, except caller bugs (bad arguments), which throw as they are.
 */
export class SessionStore {
  readonly file: string;
  /** Replies found `streaming` at open (left by a crash) and marked `interrupted`. */
  readonly interruptedAtOpen: number;
  /** Messages found waiting for their turn at open (the host quit first), marked not sent. */
  readonly notSentAtOpen: number;

  private readonly db: Database;
  private readonly sessions: SessionTable;
  private readonly messages: MessageTable;
  private readonly ledger: UsageLedger;
  private readonly finder: SessionSearch;
  /** Person's messages made durable while their request is in flight, not inserted yet (pending-log.ts). */
  private readonly pending: PendingMessageLog;
  /**
   * Runs `fn` in one transaction. Made once: building better-sqlite3's wrapper (~15 µs) cost more
   * than the small writes it wraps.
   */
  private readonly runInTransaction: (fn: () => unknown) => unknown;
  private readonly runHoldingWriteLock: (fn: () => unknown) => unknown;
  /** Logged messages inserted by the open transaction: out of the log once it commits. */
  private insertedFromLog: string[] | null = null;
  private readonly appendInTransaction: (
    input: NewMessage,
    indexLater: boolean,
    keep?: KeptIdentity,
  ) => MessageRecord;
  private readonly updateInTransaction: (id: string, patch: MessagePatch) => MessageRecord;
  private readonly settleInTransaction: (id: string) => void;
  private readonly interruptInTransaction: () => number;

  constructor(options: SessionStoreOptions) {
    this.file = options.file;
    this.db = openSessionDatabase(options.file, {
      busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
    });
    try {
      this.sessions = new SessionTable(this.db, options.clock);
      const terms = new SearchTerms(this.db);
      this.messages = new MessageTable(this.db, options.clock, terms);
      this.ledger = new UsageLedger(this.db, options.clock);
      this.finder = new SessionSearch(this.db, { terms });
      this.runInTransaction = this.db.transaction((fn: () => unknown) => fn());
      this.runHoldingWriteLock = this.db.transaction((fn: () => unknown) => fn()).immediate;
      this.appendInTransaction = this.atomically(
        (input: NewMessage, indexLater: boolean, keep?: KeptIdentity) => {
          const sessionRow = this.requireSessionRow(input.sessionId);
          const record = this.messages.append(sessionRow, input.sessionId, input, keep, indexLater);
          // A deferred message moves its session to the top when it is settled.
          if (!indexLater) this.sessions.touchRow(sessionRow);
          return record;
        },
      );
      this.updateInTransaction = this.atomically((id: string, patch: MessagePatch) => {
        if (!this.messages.update(id, patch)) throw SessionStoreError.notFound(this.file, "message", id);
        const sessionRow = this.messages.sessionRowOf(id);
        if (sessionRow !== undefined) this.sessions.touchRow(sessionRow);
        return this.messages.get(id) as MessageRecord;
      });
      this.settleInTransaction = this.atomically((id: string) => {
        if (!this.messages.settleUser(id)) return;
        const sessionRow = this.messages.sessionRowOf(id);
        if (sessionRow !== undefined) this.sessions.touchRow(sessionRow);
      });
      this.pending = new PendingMessageLog(`${options.file}-pending`);
      // Before the crash settling below: a logged message lands complete and searchable.
      this.replayPendingLog();
      // Folding a crashed reply's chunks and marking it are one step: a crash between them
      // would fold the same chunks twice at the next open.
      this.interruptInTransaction = this.atomically(() => this.messages.markStreamingAsInterrupted());
      this.interruptedAtOpen = this.interruptInTransaction();
      this.notSentAtOpen = this.messages.markPendingAsNotSent();
    } catch (error) {
      this.db.close();
      throw translateSqliteError(error, this.file);
    }
  }

  // Sessions

  createSession(input: NewSession): SessionRecord {
    return this.guard(() => this.sessions.create(input));
  }

  getSession(id: string): SessionRecord | undefined {
    return this.guard(() => this.sessions.get(id));
  }

  /** Newest updated first. */
  listSessions(options: { limit?: number; offset?: number } = {}): SessionSummary[] {
    const limit = options.limit === undefined ? -1 : Math.max(0, Math.floor(options.limit));
    return this.guard(() => this.sessions.list(limit, Math.max(0, Math.floor(options.offset ?? 0))));
  }

  setSessionPinned(id: string, pinned: boolean): void {
    this.guard(() => {
      if (!this.sessions.setPinned(id, pinned)) throw SessionStoreError.notFound(this.file, "session", id);
    });
  }

  /** A person's rename is final (`set`); the title generator passes its own state. */
  renameSession(id: string, title: string, titleState: TitleState = "set"): void {
    const trimmed = title.trim();
    if (!trimmed) throw new SessionInputError("A session title cannot be empty.");
    this.guard(() => {
      if (!this.sessions.rename(id, trimmed, titleState))
        throw SessionStoreError.notFound(this.file, "session", id);
    });
  }

  setSnapshot(id: string, snapshot: SessionSnapshot): void {
    this.guard(() => {
      if (!this.sessions.setSnapshot(id, snapshot))
        throw SessionStoreError.notFound(this.file, "session", id);
    });
  }

  setTitleState(id: string, titleState: TitleState): void {
    this.guard(() => {
      if (!this.sessions.setTitleState(id, titleState))
        throw SessionStoreError.notFound(this.file, "session", id);
    });
  }

  /** Moves the session to the top of the list. */
  touchSession(id: string): void {
    this.guard(() => {
      if (!this.sessions.touch(id)) throw SessionStoreError.notFound(this.file, "session", id);
    });
  }

  /** Deletes the session with its messages and usage; false when it did not exist. */
  deleteSession(id: string): boolean {
    return this.guard(() => this.sessions.delete(id));
  }

  // Messages

  /**
   * Appends to the end of the session's transcript and marks the session as updated. `keep` gives
   * the id and creation time of a message already announced to clients (see `nextSeq`).
   */
  appendMessage(input: NewMessage, keep?: KeptIdentity): MessageRecord {
    return this.guard(() => this.appendInTransaction(input, false, keep));
  }

  /** The `seq` the next appended message of the session gets. */
  nextSeq(sessionId: string): number {
    return this.guard(() => this.messages.nextSeq(this.requireSessionRow(sessionId)));
  }

  /**
   * Appends a person's message as cheaply as a durable write can be: its search indexing and the
   * session's move to the top wait for `settleUserMessage` (the turn calls it once the first token
   * is shown). Until then the row reads as `streaming`; a crash in between is settled at the next
   * open, so the message is never lost and ends up searchable either way.
   */
  appendUserMessageIndexLater(input: NewMessage & { role: "user" }, keep?: KeptIdentity): MessageRecord {
    const record = this.guard(() => this.appendInTransaction(input, true, keep));
    if (keep && this.insertedFromLog) this.insertedFromLog.push(keep.id);
    else if (keep) this.pending.written(keep.id);
    return record;
  }

  /**
   * Makes a person's message durable without a store commit: a line in the pending log, while its
   * request is in flight. The caller inserts it later (`appendUserMessageIndexLater` with the same
   * identity), or `discardLogged` when it reports it not saved; after a crash the next open does.
   */
  logUserMessage(input: NewMessage & { role: "user" }, keep: KeptIdentity): void {
    if (!this.db.open) throw SessionStoreError.closed(this.file);
    try {
      const { sessionId, turnId = null, content = "", meta = {} } = input;
      this.pending.append({ sessionId, turnId, content, meta, keep });
    } catch (error) {
      throw this.pendingLogUnavailable(error);
    }
  }

  /** A logged message that was reported not saved: no later open inserts it. */
  discardLogged(messageId: string): void {
    try {
      this.pending.discard(messageId);
    } catch {
      // The log could not be rewritten: the next open inserts it, which loses nothing.
    }
  }

  /** Completes a message of `appendUserMessageIndexLater`; a no-op when already settled. */
  settleUserMessage(messageId: string): void {
    this.guard(() => this.settleInTransaction(messageId));
  }

  /**
   * Adds streamed text to a reply that is still `streaming`; cheap enough to call every frame
   * (once the row holds ~2K characters, one small insert into `message_chunks`, however long the
   * reply has grown; the chunks are folded into the reply's row and the search index catches up
   * when the reply ends). Returns false when the reply has already ended, so a late delta after a
   * stop is dropped.
   */
  appendDelta(messageId: string, text: string): boolean {
    return this.guard(() => {
      if (this.messages.appendDelta(messageId, text)) return true;
      if (this.messages.sessionRowOf(messageId) === undefined) {
        throw SessionStoreError.notFound(this.file, "message", messageId);
      }
      return false;
    });
  }

  /** Replaces content and/or status; `meta` is merged into the stored meta. */
  updateMessage(messageId: string, patch: MessagePatch): MessageRecord {
    return this.guard(() => this.updateInTransaction(messageId, patch));
  }

  /** Deletes messages (regenerating a reply drops the old one); returns how many existed. */
  deleteMessages(messageIds: readonly string[]): number {
    return this.transaction(() => {
      let deleted = 0;
      for (const id of messageIds) {
        const sessionRow = this.messages.sessionRowOf(id);
        if (sessionRow === undefined || !this.messages.delete(id)) continue;
        this.sessions.touchRow(sessionRow);
        deleted += 1;
      }
      return deleted;
    });
  }

  /**
   * Moves a message to the end of its transcript, keeping its id and creation time, optionally
   * into another turn. Why: a queued or steered message is shown where it was sent but must sit
   * where it finally entered the conversation, so the model reads the turns in order.
   */
  moveMessageToEnd(messageId: string, patch: { turnId?: string | null } = {}): MessageRecord {
    return this.transaction(() => {
      const record = this.messages.get(messageId);
      const sessionRow = this.messages.sessionRowOf(messageId);
      if (!record || sessionRow === undefined)
        throw SessionStoreError.notFound(this.file, "message", messageId);
      this.messages.delete(messageId);
      const moved = this.messages.append(
        sessionRow,
        record.sessionId,
        {
          sessionId: record.sessionId,
          turnId: patch.turnId === undefined ? record.turnId : patch.turnId,
          role: record.role,
          content: record.content,
          status: record.status,
          meta: record.meta,
        },
        { id: record.id, createdAt: record.createdAt },
      );
      this.sessions.touchRow(sessionRow);
      return moved;
    });
  }

  getMessage(messageId: string): MessageRecord | undefined {
    return this.guard(() => this.messages.get(messageId));
  }

  /** The transcript in order. */
  listMessages(sessionId: string): MessageRecord[] {
    return this.guard(() => this.messages.list(this.requireSessionRow(sessionId)));
  }

  /** Runs at open; exposed for a host that wants to re-run it. Returns how many were marked. */
  markStreamingAsInterrupted(): number {
    return this.guard(() => this.interruptInTransaction());
  }

  // Search

  /** Sessions whose title or (finished) message text matches, newest updated first. */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    return this.guard(() => this.finder.search(query, options));
  }

  /**
   * Reads what a search touches into the operating system's page cache (search-prewarm.ts), so the
   * first searches after a reboot don't wait on the disk page by page. Async and off the main
   * thread; the host starts it shortly after opening the store. Returns the pages read.
   */
  async prewarmSearch(): Promise<{ pages: number; ms: number }> {
    const started = performance.now();
    const plan = this.guard(() => searchPrewarmPlan(this.db));
    const pages = await prewarmBtrees(this.file, plan.trees, plan.options);
    return { pages: pages.length, ms: performance.now() - started };
  }

  // Usage

  addUsage(sessionId: string, entry: UsageEntry): void {
    this.guard(() => this.ledger.add(this.requireSessionRow(sessionId), entry));
  }

  /** One row per category, in the order categories were first used. */
  usage(sessionId: string): UsageRow[] {
    return this.guard(() => this.ledger.grouped(this.requireSessionRow(sessionId)));
  }

  // Lifecycle

  /** Runs `fn` as one transaction: all of its writes land, or none. Calls may nest. */
  transaction<T>(fn: () => T): T {
    return this.guard(() => this.committing(this.runInTransaction, fn));
  }

  /**
   * As `transaction`, with the store's write lock taken before `fn` runs: a store another program
   * holds fails here (`store_locked`), before `fn` did anything, and `fn`'s writes cannot meet it.
   */
  transactionHoldingWriteLock<T>(fn: () => T): T {
    return this.guard(() => this.committing(this.runHoldingWriteLock, fn));
  }

  /** Runs a transaction; a logged message it inserted leaves the log only once it committed. */
  private committing<T>(run: (fn: () => unknown) => unknown, fn: () => T): T {
    if (this.insertedFromLog) return run(fn) as T;
    const inserted: string[] = (this.insertedFromLog = []);
    try {
      const result = run(fn) as T;
      for (const id of inserted) this.pending.written(id);
      return result;
    } finally {
      this.insertedFromLog = null;
    }
  }

  /** Idempotent. Later calls fail with `store_closed`. */
  close(): void {
    if (!this.db.open) return;
    try {
      this.db.pragma("optimize");
    } catch {
      // Only a statistics refresh; closing matters more.
    }
    this.db.close();
    // A message still only logged stays in the log: the next open inserts it.
    this.pending.close();
  }

  /**
   * Wraps `fn` in a transaction of its own unless one is already open. Why not a nested savepoint:
   * FTS5 flushes its pending index at every savepoint, which made bulk appends ~5x slower.
   */
  private atomically<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
    const inOwnTransaction = this.db.transaction(fn);
    return (...args: A) => (this.db.inTransaction ? fn(...args) : inOwnTransaction(...args));
  }

  /** At open: what the pending log holds is inserted; a log that cannot be read names its file. */
  private replayPendingLog(): void {
    try {
      this.pending.replay((message) => this.insertLogged(message));
    } catch (error) {
      // The log file's own failures (a system call's) name the log; the store's name the store.
      if ((error as NodeJS.ErrnoException | null)?.syscall === undefined) throw error;
      throw this.pendingLogUnavailable(error);
    }
  }

  private pendingLogUnavailable(error: unknown): SessionStoreError {
    return SessionStoreError.unavailable(this.pending.file, (error as Error).message, error);
  }

  /** A logged message at open: inserted complete, unless it made it in or its session is gone. */
  private insertLogged(message: PendingMessage): void {
    if (this.messages.get(message.keep.id) || this.sessions.rowOf(message.sessionId) === undefined) return;
    const { sessionId, turnId, content, meta, keep } = message;
    this.appendInTransaction({ sessionId, turnId, role: "user", content, meta }, false, keep);
  }

  private requireSessionRow(sessionId: string): number {
    const row = this.sessions.rowOf(sessionId);
    if (row === undefined) throw SessionStoreError.notFound(this.file, "session", sessionId);
    return row;
  }

  private guard<T>(operation: () => T): T {
    if (!this.db.open) throw SessionStoreError.closed(this.file);
    try {
      return operation();
    } catch (error) {
      throw translateSqliteError(error, this.file);
    }
  }
}
