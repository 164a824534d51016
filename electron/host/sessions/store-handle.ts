/**
 * Opens the session store without taking the host down with it: a damaged or locked file makes
 * the session methods answer its clear error (and leaves the file untouched), while settings,
 * providers and plugins keep working. A store that failed to open is retried on the next use, so
 * a lock that went away or a file the person moved aside heals without a restart.
 */
import { SessionStore, type SessionStoreOptions } from "./session-store.js";

// The search's pages are read into the OS cache this long after the store opens, off the way of
// the window's first paint; a search before then just reads from the disk as it would anyway.
const SEARCH_PREWARM_DELAY_MS = 2_000;

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
      const store = new SessionStore(this.options);
      this.store = store;
      this.failure = null;
      // Only a cache hint: a store closed meanwhile or an unreadable page just ends it.
      setTimeout(() => store.prewarmSearch().catch(() => undefined), SEARCH_PREWARM_DELAY_MS).unref();
    } catch (error) {
      this.failure = error;
    }
  }
}
