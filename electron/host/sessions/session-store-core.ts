/**
 * What every query of the session store (session-store.ts) stands on: opening the SQLite file (and
 * migrating it, open-database.ts), settling what a crash left (the pending log's messages inserted,
 * replies left `streaming` marked interrupted), transactions, the pending log's entry points, and
 * closing. Every SQLite failure leaves here as a `SessionStoreError`.
 */
import type { Database } from "better-sqlite3";
import type { Clock } from "../clock.js";
import { LoggedMessages } from "./store/pending/logged-messages.js";
import { MessageTable } from "./store/tables/message-table.js";
import { openSessionDatabase, type BeforeMigration } from "./store/open-database.js";
import type { PendingMessage } from "./store/pending/pending-log.js";
import { SearchTerms } from "./store/text/search-terms.js";
import { SessionSearch } from "./search/session-search.js";
import { SessionStoreError, translateSqliteError } from "./store/session-store-error.js";
import { SessionTable } from "./store/tables/session-table.js";
import type { MessageRecord, NewMessage } from "./store/types.js";
import { UsageLedger } from "./store/tables/usage-ledger.js";

export type SessionStoreOptions = {
  /** The SQLite file; created (with its folder) when missing. */
  file: string;
  clock: Clock;
  /** How long a write waits for another connection's lock before failing with `store_locked`. */
  busyTimeoutMs?: number;
  /** Runs before an existing store's schema is migrated: the host backs it up (store-backups.ts). */
  beforeMigration?: BeforeMigration;
  /** Told when a write fails because the disk is full (the handle turns it into a notice). */
  onDiskFull?: () => void;
  /**
   * Told when a read or write meets a damaged page (a store too large for the full check at start
   * opens unchecked): the handle moves the file aside and salvages it before the next use. The
   * failed call's error then says so.
   */
  onDamaged?: (detail: string) => void;
};

export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

/** The identity a message keeps when it is written after clients were told about it. */
export type KeptIdentity = { id: string; createdAt: number };

export class SessionStoreCore {
  readonly file: string;
  /** Replies found `streaming` at open (left by a crash) and marked `interrupted`. */
  readonly interruptedAtOpen: number;
  /** Messages found waiting for their turn at open (the host quit first), marked not sent. */
  readonly notSentAtOpen: number;
  /** When a write last failed for a full disk; null until then, and again once there is room. */
  diskFullAt: number | null = null;

  protected readonly db: Database;
  protected readonly sessions: SessionTable;
  protected readonly messages: MessageTable;
  protected readonly ledger: UsageLedger;
  protected readonly finder: SessionSearch;
  /** Person's messages made durable while their request is in flight, not inserted yet (pending-log.ts). */
  protected readonly logged: LoggedMessages;
  /**
   * Runs `fn` in one transaction. Made once: building better-sqlite3's wrapper (~15 µs) cost more
   * than the small writes it wraps.
   */
  private readonly runInTransaction: (fn: () => unknown) => unknown;
  private readonly runHoldingWriteLock: (fn: () => unknown) => unknown;
  protected readonly appendInTransaction: (
    input: NewMessage,
    indexLater: boolean,
    keep?: KeptIdentity,
  ) => MessageRecord;
  private readonly interruptInTransaction: () => number;

  private readonly onDiskFull: (() => void) | undefined;
  private readonly onDamaged: ((detail: string) => void) | undefined;
  private readonly now: () => number;

  constructor(options: SessionStoreOptions) {
    this.file = options.file;
    this.onDiskFull = options.onDiskFull;
    this.onDamaged = options.onDamaged;
    this.now = () => options.clock.now();
    this.db = openSessionDatabase(options.file, {
      busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
      ...(options.beforeMigration && { beforeMigration: options.beforeMigration }),
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
      this.logged = new LoggedMessages(options.file);
      // Before the crash settling below: a logged message lands complete and searchable.
      this.logged.replay((message) => this.insertLogged(message));
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

  /**
   * Makes a person's message durable without a store commit: a line in the pending log, while its
   * request is in flight. The caller inserts it later (`appendUserMessageIndexLater` with the same
   * identity), or `discardLogged` when it reports it not saved; after a crash the next open does.
   */
  logUserMessage(input: NewMessage & { role: "user" }, keep: KeptIdentity): void {
    if (!this.db.open) throw SessionStoreError.closed(this.file);
    const { sessionId, turnId = null, content = "", meta = {} } = input;
    this.logged.append({ sessionId, turnId, content, meta, keep });
  }

  /** A logged message that was reported not saved: no later open inserts it. */
  discardLogged(messageId: string): void {
    this.logged.discard(messageId);
  }

  /** Runs at open; exposed for a host that wants to re-run it. Returns how many were marked. */
  markStreamingAsInterrupted(): number {
    return this.guard(() => this.interruptInTransaction());
  }

  /** Runs `fn` as one transaction: all of its writes land, or none. Calls may nest. */
  transaction<T>(fn: () => T): T {
    return this.guard(() => this.logged.committing(this.runInTransaction, fn));
  }

  /**
   * As `transaction`, with the store's write lock taken before `fn` runs: a store another program
   * holds fails here (`store_locked`), before `fn` did anything, and `fn`'s writes cannot meet it.
   */
  transactionHoldingWriteLock<T>(fn: () => T): T {
    return this.guard(() => this.logged.committing(this.runHoldingWriteLock, fn));
  }

  /**
   * Copies the whole store to `target` with SQLite's online backup: writers go on meanwhile, and
   * the copy is one consistent moment of the store.
   */
  async backupTo(target: string): Promise<void> {
    if (!this.db.open) throw SessionStoreError.closed(this.file);
    try {
      await this.db.backup(target);
    } catch (error) {
      throw translateSqliteError(error, this.file);
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
    this.logged.close();
  }

  /**
   * Wraps `fn` in a transaction of its own unless one is already open. Why not a nested savepoint:
   * FTS5 flushes its pending index at every savepoint, which made bulk appends ~5x slower.
   */
  protected atomically<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
    const inOwnTransaction = this.db.transaction(fn);
    return (...args: A) => (this.db.inTransaction ? fn(...args) : inOwnTransaction(...args));
  }

  protected requireSessionRow(sessionId: string): number {
    const row = this.sessions.rowOf(sessionId);
    if (row === undefined) throw SessionStoreError.notFound(this.file, "session", sessionId);
    return row;
  }

  protected guard<T>(operation: () => T): T {
    if (!this.db.open) throw SessionStoreError.closed(this.file);
    try {
      return operation();
    } catch (error) {
      const translated = translateSqliteError(error, this.file);
      if (translated instanceof SessionStoreError && translated.reason === "store_full") {
        const first = this.diskFullAt === null;
        this.diskFullAt = this.now();
        if (first) this.onDiskFull?.();
      }
      if (
        translated instanceof SessionStoreError &&
        translated.reason === "store_corrupt" &&
        this.onDamaged
      ) {
        const detail = error instanceof Error ? error.message : String(error);
        this.onDamaged(detail);
        throw SessionStoreError.damagedInUse(this.file, detail, error);
      }
      throw translated;
    }
  }

  /** A logged message at open: inserted complete, unless it made it in or its session is gone. */
  private insertLogged(message: PendingMessage): void {
    if (this.messages.get(message.keep.id) || this.sessions.rowOf(message.sessionId) === undefined) return;
    const { sessionId, turnId, content, meta, keep } = message;
    this.appendInTransaction({ sessionId, turnId, role: "user", content, meta }, false, keep);
  }
}
