/**
 * Streamed text is on disk as it reaches anyone's screen: each batch is appended to the reply
 * (the store keeps it as one chunk of the reply, see message-chunks.ts) and then emitted as one
 * `session.delta`, so a crash (even `kill -9`) never loses text a person saw. The reply's first
 * text is written with its row, in the same synchronous step that shows it
 * (`Transcript.appendReplyShowing`), before the event loop runs anything else and long before a
 * window can paint it: no write stands in front of the first token. Batching keeps the speed: a
 * chunk that arrives while nothing is pending goes out at once, and what arrives within a display
 * frame after a batch went out is gathered and written and shown together when that frame ends.
 * Why a frame and not one turn of the event loop: a fast provider's reads come more often than a
 * screen can show them, and each batch is one commit and one message for every client. The frame
 * is shared by every reply streaming at once, and its batches are one commit (delta-frame.ts).
 */
import { DeltaFrame, type FrameMember } from "./delta-frame.js";

export { DELTA_BATCH_MS } from "./delta-frame.js";

export interface DeltaSink {
  /** Appends to the stored reply; may throw when the store fails. */
  write(text: string): void;
  /** Tells clients (the `session.delta` event). */
  emit(text: string): void;
}

export class DeltaWriter implements FrameMember {
  private buffer = "";
  private failure: unknown = null;
  private disposed = false;

  /**
   * `frame` is the frame every streaming reply of the store shares (delta-frame.ts: one commit a
   * frame for all); a writer on its own gets a frame of its own, written without a transaction.
   */
  constructor(
    private readonly sink: DeltaSink,
    private readonly frame: DeltaFrame = new DeltaFrame(),
  ) {}

  push(text: string): void {
    if (this.disposed || !text) return;
    this.buffer += text;
    if (this.frame.has(this)) return;
    this.flush();
    this.frame.join(this);
  }

  /** Text the caller writes itself (the first, with the reply's row): shown now, as a flush. */
  pushWritten(text: string): void {
    if (this.disposed || !text) return;
    this.sink.emit(text);
    this.frame.join(this);
  }

  get pending(): boolean {
    return !this.disposed && this.buffer !== "";
  }

  writePending(): void {
    this.sink.write(this.buffer);
  }

  /** Shows what was written (or failed to be: kept for `failed`, the text still shown). */
  showPending(error: unknown): void {
    if (!this.buffer) return;
    const text = this.buffer;
    this.buffer = "";
    if (error) this.failure ??= error;
    this.sink.emit(text);
  }

  /** Writes, then shows, what is gathered, on its own (outside the frame's commit). */
  flush(): void {
    if (!this.buffer) return;
    let error: unknown = null;
    try {
      this.writePending();
    } catch (caught) {
      error = caught;
    }
    this.showPending(error);
  }

  /** The first store failure a write hit, if any (the final write of the reply reports it too). */
  get failed(): unknown {
    return this.failure;
  }

  /** The reply is over (complete, stopped or failed): gathered text is written and shown now, later pushes are ignored. */
  finish(): void {
    this.frame.leave(this);
    this.flush();
    this.disposed = true;
  }
}
