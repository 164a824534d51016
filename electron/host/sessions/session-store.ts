import { prewarmBtrees, searchPrewarmPlan } from "./search/search-prewarm.js";
import type { SearchOptions } from "./search/session-search.js";
import { SessionInputError } from "./store/session-errors.js";
import { SessionStoreCore, type KeptIdentity, type SessionStoreOptions } from "./session-store-core.js";
import { SessionStoreError } from "./store/session-store-error.js";
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
} from "./store/types.js";

export {
  DEFAULT_BUSY_TIMEOUT_MS,
  type KeptIdentity,
  type SessionStoreOptions,
} from "./session-store-core.js";

/**
 * The persistent store of sessions, their messages and their usage (docs/contract.md §9.1), on one SQLite file.
 * Synchronous by design (better-sqlite3): every call is a short local transaction. Every failure is
 * a `SessionStoreError`, except caller bugs (bad arguments), which throw as they are. Opening,
 * settling after a crash, transactions, the pending log and closing: session-store-core.ts.
 */
export class SessionStore extends SessionStoreCore {
  private readonly updateInTransaction: (id: string, patch: MessagePatch) => MessageRecord;
  private readonly settleInTransaction: (id: string) => void;
  /** Updates a full disk refused, by message id, merged (see `updateMessage`). */
  private readonly deferred = new Map<string, MessagePatch>();

  constructor(options: SessionStoreOptions) {
    super(options);
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
    if (keep) this.logged.inserted(keep.id);
    return record;
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

  /**
   * Replaces content and/or status; `meta` is merged into the stored meta. An update a full disk
   * refused (a reply's final text and status) is kept and written by `retryDeferredUpdates` once
   * there is room, so a reply cut short by the disk does not stay "streaming".
   */
  updateMessage(messageId: string, patch: MessagePatch): MessageRecord {
    try {
      const record = this.guard(() => this.updateInTransaction(messageId, patch));
      this.deferred.delete(messageId);
      return record;
    } catch (error) {
      if (error instanceof SessionStoreError && error.reason === "store_full") this.defer(messageId, patch);
      throw error;
    }
  }

  /** How many refused updates wait for room on the disk. */
  get deferredUpdates(): number {
    return this.deferred.size;
  }

  /**
   * Writes the updates a full disk refused, oldest first, handing each written record to
   * `written`; false when the disk is still full.
   */
  retryDeferredUpdates(written: (record: MessageRecord) => void): boolean {
    for (const [id, patch] of this.deferred) {
      let record: MessageRecord | undefined;
      try {
        record = this.guard(() => this.updateInTransaction(id, patch));
      } catch (error) {
        if (error instanceof SessionStoreError && error.reason === "store_full") return false;
        // Deleted meanwhile (or the store closed): nothing left to complete.
      }
      this.deferred.delete(id);
      if (record) written(record);
    }
    return true;
  }

  private defer(messageId: string, patch: MessagePatch): void {
    const earlier = this.deferred.get(messageId);
    this.deferred.set(
      messageId,
      earlier ? { ...earlier, ...patch, meta: { ...earlier.meta, ...patch.meta } } : patch,
    );
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
}
