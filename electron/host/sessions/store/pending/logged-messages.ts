/**
 * The pending log's wiring into the store (pending-log.ts holds the file): a person's message logged
 * while its request is in flight leaves the log once its insert is durable, which inside a
 * transaction is when that transaction commits, not before.
 */
import { PendingMessageLog, type PendingMessage } from "./pending-log.js";
import { SessionStoreError } from "../session-store-error.js";

export class LoggedMessages {
  private readonly log: PendingMessageLog;
  /** Logged messages inserted by the open transaction: out of the log once it commits. */
  private insertedInTransaction: string[] | null = null;

  constructor(storeFile: string) {
    this.log = new PendingMessageLog(`${storeFile}-pending`);
  }

  /** Makes the message durable in the log; a log that cannot be written names its file. */
  append(message: PendingMessage): void {
    try {
      this.log.append(message);
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  /** A logged message that was reported not saved: no later open inserts it. */
  discard(messageId: string): void {
    try {
      this.log.discard(messageId);
    } catch {
      // The log could not be rewritten: the next open inserts it, which loses nothing.
    }
  }

  /** A logged message was inserted: out of the log now, or once the open transaction commits. */
  inserted(messageId: string): void {
    if (this.insertedInTransaction) this.insertedInTransaction.push(messageId);
    else this.log.written(messageId);
  }

  /** Runs a transaction; a logged message it inserted leaves the log only once it committed. */
  committing<T>(run: (fn: () => unknown) => unknown, fn: () => T): T {
    if (this.insertedInTransaction) return run(fn) as T;
    const inserted: string[] = (this.insertedInTransaction = []);
    try {
      const result = run(fn) as T;
      for (const id of inserted) this.log.written(id);
      return result;
    } finally {
      this.insertedInTransaction = null;
    }
  }

  /** At open: what the log holds is inserted; a log that cannot be read names its file. */
  replay(insert: (message: PendingMessage) => void): void {
    try {
      this.log.replay(insert);
    } catch (error) {
      // The log file's own failures (a system call's) name the log; the store's name the store.
      if ((error as NodeJS.ErrnoException | null)?.syscall === undefined) throw error;
      throw this.unavailable(error);
    }
  }

  /** A message still only logged stays in the log: the next open inserts it. */
  close(): void {
    this.log.close();
  }

  private unavailable(error: unknown): SessionStoreError {
    return SessionStoreError.unavailable(this.log.file, (error as Error).message, error);
  }
}
