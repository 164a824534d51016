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
 * screen can show them, and each batch is one commit and one message for every client.
 */
import { systemClock, type Clock, type TimerHandle } from "../../clock.js";

/** How long after a batch went out the next is gathered: one frame at 60 Hz. */
export const DELTA_BATCH_MS = 16;

export interface DeltaSink {
  /** Appends to the stored reply; may throw when the store fails. */
  write(text: string): void;
  /** Tells clients (the `session.delta` event). */
  emit(text: string): void;
}

export class DeltaWriter {
  private buffer = "";
  private window: TimerHandle | null = null;
  private failure: unknown = null;
  private disposed = false;

  constructor(
    private readonly sink: DeltaSink,
    private readonly clock: Clock = systemClock,
    private readonly batchMs = DELTA_BATCH_MS,
  ) {}

  push(text: string): void {
    if (this.disposed || !text) return;
    this.buffer += text;
    if (this.window) return;
    this.flush();
    this.openWindow();
  }

  /** Text the caller writes itself (the first, with the reply's row): shown now, as a flush. */
  pushWritten(text: string): void {
    if (this.disposed || !text) return;
    this.sink.emit(text);
    this.openWindow();
  }

  /**
   * Whatever arrives before the window closes joins the next batch; a batch going out opens the
   * next window, and a window that closes on nothing lets the next chunk out at once.
   */
  private openWindow(): void {
    this.window = this.clock.setTimeout(() => {
      this.window = null;
      if (this.disposed || !this.buffer) return;
      this.flush();
      this.openWindow();
    }, this.batchMs);
  }

  /** Writes, then shows, what is gathered. A failed write is kept for `failed`, the text still shown. */
  flush(): void {
    if (!this.buffer) return;
    const text = this.buffer;
    this.buffer = "";
    try {
      this.sink.write(text);
    } catch (error) {
      this.failure ??= error;
    }
    this.sink.emit(text);
  }

  /** The first store failure a write hit, if any (the final write of the reply reports it too). */
  get failed(): unknown {
    return this.failure;
  }

  /** The reply is over (complete, stopped or failed): gathered text is written and shown now, later pushes are ignored. */
  finish(): void {
    if (this.window) this.clock.clearTimeout(this.window);
    this.window = null;
    this.flush();
    this.disposed = true;
  }
}
