import type { Statement } from "better-sqlite3";
import { sessionRowOfKey } from "../store/tables/message-key.js";

/**
 * Matching messages read in ascending key order, i.e. newest-created session first. Every session
 * newer than the last one read has had all its matches read, so whether it matches is known.
 */
export class MessageHits {
  /** Each session's first matching message, for the sessions read so far. */
  readonly firstMatch = new Map<number, number>();
  complete: boolean;
  hitsRead = 0;
  private lastKey = 0;
  private firstKey = 0;
  private window: number;
  constructor(
    private readonly stmt: Statement<[string, number, number], number>,
    private readonly match: string | null,
    /** How many matches the first read takes; later reads double it. */
    readonly firstWindow: number,
  ) {
    this.complete = match === null;
    this.window = firstWindow;
    this.read(firstWindow);
  }

  /** Reads up to `count` more matches; all the rest when `count` is null. */
  private read(count: number | null): void {
    if (this.complete || this.match === null) return;
    // LIMIT -1 is no limit.
    const keys = this.stmt.all(this.match, this.lastKey, count === null ? -1 : count + 1);
    const taken = count !== null && keys.length > count ? keys.slice(0, count) : keys;
    for (const key of taken) {
      const sessionRow = sessionRowOfKey(key);
      if (!this.firstMatch.has(sessionRow)) this.firstMatch.set(sessionRow, key);
    }
    if (taken.length > 0) {
      this.firstKey ||= taken[0]!;
      this.lastKey = taken[taken.length - 1]!;
    }
    this.hitsRead += taken.length;
    this.complete = count === null || keys.length <= count;
  }

  /**
   * Reads every match left, in one statement: each statement seeks every word's doclist to where
   * the last read stopped, which for a word without a doclist index means reading it from its start.
   */
  readRest(): void {
    this.read(null);
  }

  /** Reads on: twice as many matches as the last read took. */
  readMore(): void {
    this.window *= 2;
    this.read(this.window);
  }

  /** Sessions at or after this row are known (while not complete; read() has run at least once). */
  knownFromRow(): number {
    return sessionRowOfKey(this.lastKey);
  }

  /** About how many matches lie between what was read and this older session. */
  hitsBefore(sessionRow: number): number {
    const covered = sessionRowOfKey(this.firstKey) - sessionRowOfKey(this.lastKey) + 1;
    return ((sessionRowOfKey(this.lastKey) - sessionRow) * this.hitsRead) / Math.max(1, covered);
  }

  /** Whether this session's matches (or their absence) are all read. */
  knows(sessionRow: number): boolean {
    return this.complete || (this.lastKey !== 0 && sessionRow >= sessionRowOfKey(this.lastKey));
  }

  /** Reads on, in growing windows, until the session is known; its first match or null. */
  readUntilKnown(sessionRow: number): number | null {
    while (!this.knows(sessionRow)) this.readMore();
    return this.firstMatch.get(sessionRow) ?? null;
  }
}
