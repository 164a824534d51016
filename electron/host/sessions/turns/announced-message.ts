/**
 * A person's message that starts a turn, announced to clients before it is stored
 * (`Transcript.announceUser`). It becomes durable while the turn's request is in flight (`log`:
 * a line in the store's pending log, pending-log.ts), and is inserted into the store before any
 * other write of it, at the latest with the reply's first text (`insert`). When the store refuses
 * it, it is reported not saved (`fail`): clients keep showing it, marked with the reason, and no
 * later open of the store inserts it.
 */
import type { SessionStore } from "../session-store.js";
import type { MessageRecord, NewMessage } from "../store/types.js";

/** A person's message could not be written: the turn stops, and says so. */
export class MessageNotSavedError extends Error {
  constructor(reason: string) {
    super(`Your message could not be saved, so it was not answered: ${reason}`);
    this.name = "MessageNotSavedError";
  }
}

export interface AnnouncedMessageHooks {
  store: () => SessionStore;
  /** The stored record (its seq may differ from the announced one's when another write came first). */
  inserted: (stored: MessageRecord) => void;
  /** Clients are told it is not saved. */
  failed: (notSaved: MessageNotSavedError) => void;
}

type State = "in memory" | "logged" | "inserted" | { failed: MessageNotSavedError };

export class AnnouncedMessage {
  private state: State = "in memory";
  /** Where it was before its insert: where it is again if the insert's transaction rolls back. */
  private beforeInsert: "in memory" | "logged" = "in memory";

  constructor(
    readonly record: MessageRecord,
    private readonly input: NewMessage & { role: "user" },
    private readonly hooks: AnnouncedMessageHooks,
  ) {}

  /** True once it is in the store or reported not saved: nothing is left to write. */
  get settled(): boolean {
    return this.state === "inserted" || typeof this.state === "object";
  }

  /** Durable once this returns (idempotent); throws `MessageNotSavedError` when it cannot be. */
  log(): void {
    if (typeof this.state === "object") throw this.state.failed;
    if (this.state !== "in memory") return;
    try {
      this.hooks.store().logUserMessage(this.input, this.identity());
      this.state = "logged";
    } catch (error) {
      throw this.fail(error);
    }
  }

  /** In the store once this returns (idempotent); throws `MessageNotSavedError` when refused. */
  insert(): void {
    if (typeof this.state === "object") throw this.state.failed;
    if (this.state === "inserted") return;
    try {
      const stored = this.hooks.store().appendUserMessageIndexLater(this.input, this.identity());
      this.beforeInsert = this.state;
      this.state = "inserted";
      this.hooks.inserted(stored);
    } catch (error) {
      throw this.fail(error);
    }
  }

  /**
   * The transaction that inserted it rolled back (a later write of the same commit failed): it is
   * where it was before, still to insert. True when that undid an insert.
   */
  insertRolledBack(): boolean {
    if (this.state !== "inserted") return false;
    this.state = this.beforeInsert;
    return true;
  }

  /** Reports it not saved for `error` (what the store threw); returns the error to throw. */
  fail(error: unknown): MessageNotSavedError {
    if (typeof this.state === "object") return this.state.failed;
    const notSaved = new MessageNotSavedError(error instanceof Error ? error.message : String(error));
    if (this.state === "logged") this.hooks.store().discardLogged(this.record.id);
    this.state = { failed: notSaved };
    this.hooks.failed(notSaved);
    return notSaved;
  }

  private identity(): { id: string; createdAt: number } {
    return { id: this.record.id, createdAt: this.record.createdAt };
  }
}
