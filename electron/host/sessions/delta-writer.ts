/**
 * Streamed text reaches the disk before it reaches anyone's screen: each batch is appended to the
 * reply's row and only then emitted as one `session.delta`, so a crash (even `kill -9`) never loses
 * text a person saw. Batching keeps the speed: a chunk that arrives while nothing is pending goes
 * out at once (the first token waits for one small write, no timer: the one that creates the reply's
 * row, see `pushWritten`), and chunks that arrive in the same burst are gathered until the event
 * loop turns, then written and shown together.
 */

export interface DeltaSink {
  /** Appends to the stored reply; may throw when the store fails. */
  write(text: string): void;
  /** Tells clients (the `session.delta` event). */
  emit(text: string): void;
}

export class DeltaWriter {
  private buffer = "";
  private windowOpen = false;
  private failure: unknown = null;
  private disposed = false;

  constructor(private readonly sink: DeltaSink) {}

  push(text: string): void {
    if (this.disposed || !text) return;
    this.buffer += text;
    if (this.windowOpen) return;
    this.flush();
    this.openWindow();
  }

  /** Text the caller has already written (the first, with the reply's row): shown now, as a flush. */
  pushWritten(text: string): void {
    if (this.disposed || !text) return;
    this.sink.emit(text);
    this.openWindow();
  }

  /** Whatever arrives before the loop turns joins the next batch. */
  private openWindow(): void {
    this.windowOpen = true;
    setImmediate(() => {
      this.windowOpen = false;
      if (!this.disposed) this.flush();
    });
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

  /** The reply is over: gathered text is written and shown, later pushes are ignored. */
  finish(): void {
    this.flush();
    this.disposed = true;
  }
}
