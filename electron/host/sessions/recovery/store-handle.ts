/**
 * Opens the session store without taking the host down with it: a damaged or locked file makes
 * the session methods answer its clear error (and leaves the file untouched), while settings,
 * providers and plugins keep working. A store that failed to open is retried on the next use, so
 * a lock that went away or a file the person moved aside heals without a restart.
 */
import { DEFAULT_INTEGRITY_CHECK_MAX_BYTES, findStoreDamage } from "./store-damage.js";
import fs from "node:fs";
import path from "node:path";
import { moveStoreAside, recoverDamagedStore, recoveryNotice, type StoreRecovery } from "./store-recovery.js";
import { SessionStore, type SessionStoreOptions } from "../session-store.js";
import { SessionStoreError } from "../store/session-store-error.js";
import type { TimerHandle } from "../../clock.js";
import type { MessageRecord } from "../store/types.js";

export type StoreHandleOptions = SessionStoreOptions & {
  /** Files up to this size get SQLite's page-by-page check at start (store-damage.ts). */
  integrityCheckMaxBytes?: number;
  /**
   * What the start's damage check found, when the caller ran it already (web mode runs it off the
   * main thread while the host's code loads: `findStoreDamageOffThread`); checked here when absent.
   */
  damageFound?: string | null;
  /** Told when the disk holding the store fills (true) and when there is room again (false). */
  onDiskFullChange?: (full: boolean) => void;
};

/** Free space that counts as "room again" after the disk was full. */
const ROOM_AGAIN_BYTES = 1024 * 1024;
/** How often a full disk is looked at again (on use of the store, never on a timer). */
const DISK_FULL_RETRY_MS = 1_000;

// The search's pages are read into the OS cache this long after the store opens, off the way of
// the window's first paint; a search before then just reads from the disk as it would anyway.
const SEARCH_PREWARM_DELAY_MS = 2_000;

export class StoreHandle {
  private store: SessionStore | null = null;
  private failure: unknown = null;
  /** Set once the file was checked for damage (at the first open that got that far). */
  private checked = false;
  private recovered: StoreRecovery | null = null;
  private lastRoomCheck = 0;
  private roomTimer: TimerHandle | null = null;
  private lateUpdateListeners: ((record: MessageRecord) => void)[] = [];
  /** Damage met in use, not yet recovered from: the next use moves the file aside first. */
  private damagedInUse: string | null = null;

  constructor(private readonly options: StoreHandleOptions) {
    this.tryOpen();
  }

  /** The open store, or throws the `SessionStoreError` that keeps it closed. */
  get(): SessionStore {
    if (this.damagedInUse !== null) this.recoverInUse(this.damagedInUse);
    if (this.store) {
      if (this.store.diskFullAt !== null) this.lookForRoom(this.store);
      return this.store;
    }
    this.tryOpen();
    if (this.store) return this.store;
    throw this.failure;
  }

  /** The error of the last failed open, or null when the store is open. */
  openError(): unknown {
    return this.store ? null : this.failure;
  }

  /** Told of each update a full disk refused once it is written (the transcript shows it). */
  onLateUpdate(listener: (record: MessageRecord) => void): void {
    this.lateUpdateListeners.push(listener);
  }

  /** The notice while the disk holding the store is full, or null. */
  diskFullNotice(): string | null {
    if (!this.store || this.store.diskFullAt === null) return null;
    this.lookForRoom(this.store);
    if (this.store.diskFullAt === null) return null;
    return (
      `The disk holding your chats (${path.dirname(this.options.file)}) is full: new messages and replies ` +
      `cannot be saved until there is room. Everything saved before is kept. Free some space on that disk; ` +
      `Hermes Desktop carries on by itself once there is room.`
    );
  }

  /** What a damaged store at start became (moved aside, what was kept), or null. */
  recovery(): StoreRecovery | null {
    return this.recovered;
  }

  /** The recovery, in words for `host.info`'s notices. */
  recoveryNotice(): string | null {
    return this.recovered ? recoveryNotice(this.recovered) : null;
  }

  /**
   * Replaces the store with a copy of `backupFile` (store-backups.ts). The backup is checked first;
   * the current store (with its log) is kept aside, never deleted. Answers where it went.
   */
  restore(backupFile: string): { keptAside: string } {
    const damage = findStoreDamage(backupFile, Number.POSITIVE_INFINITY);
    if (damage) throw SessionStoreError.corrupt(backupFile, damage);
    const { file, clock } = this.options;
    this.close();
    const keptAside = moveStoreAside(file, "before-restore", clock.now());
    // Copied under another name first: a copy cut short never sits where the store opens.
    const incoming = `${file}.restoring`;
    fs.copyFileSync(backupFile, incoming);
    fs.renameSync(incoming, file);
    this.recovered = null;
    this.checked = true;
    this.tryOpen();
    if (!this.store) throw this.failure;
    return { keptAside };
  }

  close(): void {
    if (this.roomTimer) this.options.clock.clearTimeout(this.roomTimer);
    this.roomTimer = null;
    this.store?.close();
    this.store = null;
  }

  private tryOpen(): void {
    try {
      const store = this.openRecovering();
      this.store = store;
      this.failure = null;
      // Only a cache hint: a store closed meanwhile or an unreadable page just ends it.
      setTimeout(() => store.prewarmSearch().catch(() => undefined), SEARCH_PREWARM_DELAY_MS).unref();
    } catch (error) {
      this.failure = error;
    }
  }

  /**
   * Opens the store; a file found damaged first (or by the open itself: a schema page) is moved
   * aside and replaced by what could be read from it, once per handle.
   */
  private openRecovering(): SessionStore {
    if (!this.checked) {
      const { file, integrityCheckMaxBytes = DEFAULT_INTEGRITY_CHECK_MAX_BYTES, damageFound } = this.options;
      const damage = damageFound !== undefined ? damageFound : findStoreDamage(file, integrityCheckMaxBytes);
      this.checked = true;
      if (damage) this.recover(damage);
    }
    try {
      return new SessionStore(this.storeOptions());
    } catch (error) {
      if (this.recovered || !(error instanceof SessionStoreError) || error.reason !== "store_corrupt")
        throw error;
      const cause = error.cause instanceof Error ? error.cause.message : error.message;
      this.recover(`SQLite could not read it (${cause})`);
      return new SessionStore(this.storeOptions());
    }
  }

  /**
   * After a write failed for a full disk: at most once a second, writes what the disk refused and,
   * when there is room again (those writes went through, and the disk has some space), says so.
   */
  private lookForRoom(store: SessionStore): void {
    const now = this.options.clock.now();
    if (now - this.lastRoomCheck < DISK_FULL_RETRY_MS) return;
    this.lastRoomCheck = now;
    const written = (record: MessageRecord) =>
      this.lateUpdateListeners.forEach((listener) => listener(record));
    if (!store.retryDeferredUpdates(written)) return;
    if (freeBytes(path.dirname(this.options.file)) < ROOM_AGAIN_BYTES) return;
    store.diskFullAt = null;
    this.options.onDiskFullChange?.(false);
  }

  /** While the disk is full, looks again every second: the app carries on by itself once there is room. */
  private watchForRoom(): void {
    if (this.roomTimer) return;
    const { clock } = this.options;
    const tick = () => {
      this.roomTimer = null;
      const store = this.store;
      if (!store || store.diskFullAt === null) return;
      this.lookForRoom(store);
      if (store.diskFullAt !== null) this.roomTimer = clock.setTimeout(tick, DISK_FULL_RETRY_MS);
    };
    this.roomTimer = clock.setTimeout(tick, DISK_FULL_RETRY_MS);
  }

  private storeOptions(): SessionStoreOptions {
    return {
      ...this.options,
      onDiskFull: () => {
        this.options.onDiskFullChange?.(true);
        this.watchForRoom();
      },
      // Once per handle, as at start: a store salvaged once is not moved aside again.
      ...(!this.recovered && { onDamaged: (detail: string) => void (this.damagedInUse ??= detail) }),
    };
  }

  /**
   * A store opened unchecked (too large for the check at start) met a damaged page in use: it is
   * closed, moved aside whole and replaced by what can be read from it, as at start.
   */
  private recoverInUse(detail: string): void {
    this.damagedInUse = null;
    this.close();
    try {
      this.recover(`SQLite met a damaged page in use (${detail})`);
    } catch (error) {
      this.failure = error;
      return;
    }
    this.tryOpen();
  }

  private recover(damage: string): void {
    try {
      this.recovered = recoverDamagedStore(this.options.file, this.options.clock.now(), damage);
    } catch (error) {
      throw SessionStoreError.unavailable(
        this.options.file,
        `it is damaged (${damage}) and could not be moved aside: ${error instanceof Error ? error.message : String(error)}`,
        error,
      );
    }
  }
}

function freeBytes(dir: string): number {
  try {
    const stats = fs.statfsSync(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return Number.POSITIVE_INFINITY; // cannot tell: the writes that went through decide
  }
}
