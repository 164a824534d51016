/**
 * One display frame's batches of every streaming reply, written in one store commit. Why: each
 * reply's writer (delta-writer.ts) gathers its stream's text for a frame, and with each writer on
 * its own timer, 20 replies streaming at once were 20 commits a frame (~1,200 a second), each
 * paying SQLite's transaction and write-ahead-log cost for a few words; together they held the
 * host's event loop for tens of milliseconds at a time (issue 32's load: `host.info` waited
 * behind them). One commit for all costs about a third per batch. A batch is still on disk before
 * it is shown: the frame commits, then every writer emits its text.
 */
import { systemClock, type Clock, type TimerHandle } from "../../clock.js";

/** How long after a batch went out the next is gathered: one frame at 60 Hz. */
export const DELTA_BATCH_MS = 16;

/** What a frame asks of each writer that is in it. */
export interface FrameMember {
  /** Whether text is gathered; a member with none leaves the frame (its window closed on nothing). */
  readonly pending: boolean;
  /** Writes its gathered text to the store (inside the frame's commit); throws when the store fails. */
  writePending(): void;
  /** After the commit: shows the written text, or keeps `error` when the write failed (the text is shown anyway). */
  showPending(error: unknown): void;
}

/** Runs `writes` as one store commit: all land or none (SessionStore.transaction). */
export type Commit = (writes: () => void) => void;

export class DeltaFrame {
  private readonly members = new Set<FrameMember>();
  private timer: TimerHandle | null = null;

  constructor(
    private readonly commit: Commit = (writes) => writes(),
    private readonly clock: Clock = systemClock,
    private readonly batchMs = DELTA_BATCH_MS,
  ) {}

  /** Whether `member` is gathering for the next frame (its next text waits for it). */
  has(member: FrameMember): boolean {
    return this.members.has(member);
  }

  /** `member` gathers until the next frame ends, and every frame after while it has text. */
  join(member: FrameMember): void {
    this.members.add(member);
    this.timer ??= this.clock.setTimeout(() => this.tick(), this.batchMs);
  }

  leave(member: FrameMember): void {
    this.members.delete(member);
    if (this.members.size === 0 && this.timer) {
      this.clock.clearTimeout(this.timer);
      this.timer = null;
    }
  }

  private tick(): void {
    this.timer = null;
    const due: FrameMember[] = [];
    for (const member of this.members) {
      if (member.pending) due.push(member);
      else this.members.delete(member);
    }
    if (this.members.size > 0) this.timer = this.clock.setTimeout(() => this.tick(), this.batchMs);
    if (due.length === 0) return;
    const failures = this.write(due);
    due.forEach((member, i) => member.showPending(failures[i]));
  }

  /**
   * Every due member's text in one commit. When it fails (a full disk, a damaged page), nothing of
   * it landed: each is written again on its own, so each learns its own failure and a reply whose
   * write can land is not held back by another's.
   */
  private write(due: FrameMember[]): unknown[] {
    try {
      this.commit(() => {
        for (const member of due) member.writePending();
      });
      return due.map(() => null);
    } catch {
      return due.map((member) => {
        try {
          member.writePending();
          return null;
        } catch (error) {
          return error;
        }
      });
    }
  }
}
