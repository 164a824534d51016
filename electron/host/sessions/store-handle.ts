/**
 * Opens the session store without taking the host down with it: a damaged or locked file makes
 * the session methods answer its clear error (and leaves the file untouched), while settings,
 * providers and plugins keep working. A store that failed to open is retried on the next use, so
 * a lock that went away or a file the person moved aside heals without a restart.
 */
import { SessionStore, type SessionStoreOptions } from "./session-store.js";

export class StoreHandle {
  private store: SessionStore | null = null;
  private failure: unknown = null;

  constructor(private readonly options: SessionStoreOptions) {
    this.tryOpen();
  }

  /** The open store, or throws the `SessionStoreError` that keeps it closed. */
  get(): SessionStore {
    if (this.store) return this.store;
    this.tryOpen();
    if (this.store) return this.store;
    throw this.failure;
  }

  /** The error of the last failed open, or null when the store is open. */
  openError(): unknown {
    return this.store ? null : this.failure;
  }

  close(): void {
    this.store?.close();
    this.store = null;
  }

  private tryOpen(): void {
    try {
      this.store = new SessionStore(this.options);
      this.failure = null;
    } catch (error) {
      this.failure = error;
    }
  }
}
