/**
 * One side of a plugin channel: numbered calls out with optional deadlines, answers matched back,
 * calls in dispatched to a handler table. The same class runs in the host (calling `PluginCalls`)
 * and in a worker (calling `CtxCalls`); only the tables differ.
 */
import { fromWireError, toWireError, type Frame, type ResultFrame } from "./boundary.js";

interface CallShape {
  params: unknown;
  result: unknown;
}

export type HandlerTable<T extends { [K in keyof T]: CallShape }> = {
  [K in keyof T]: (params: T[K]["params"]) => T[K]["result"] | Promise<T[K]["result"]>;
};

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer?: unknown;
}

export interface CallOptions {
  deadlineMs?: number;
  /** The error a missed deadline rejects with. */
  onDeadline?: () => Error;
}

export class Endpoint<
  Out extends { [K in keyof Out]: CallShape },
  In extends { [K in keyof In]: CallShape },
> {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedWith: Error | null = null;

  constructor(
    private readonly send: (frame: Frame) => void,
    private readonly handlers: HandlerTable<In>,
    private readonly timers: Timers,
  ) {}

  get pendingCount(): number {
    return this.pending.size;
  }

  call<K extends keyof Out & string>(
    method: K,
    params: Out[K]["params"],
    options: CallOptions = {},
  ): Promise<Out[K]["result"]> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const entry: Pending = { resolve: resolve as (value: unknown) => void, reject };
      if (options.deadlineMs !== undefined) {
        entry.timer = this.timers.setTimeout(() => {
          this.pending.delete(id);
          reject(options.onDeadline?.() ?? new Error(`${method} did not answer in time`));
        }, options.deadlineMs);
      }
      this.pending.set(id, entry);
      try {
        this.send({ kind: "call", id, method, params });
      } catch (error) {
        this.settle(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /**
   * A call whose caller waits for the answer without yielding (a worker's synchronous `ctx`
   * members): `awaitAnswer` blocks until the result of call `id` arrived and returns it, or null
   * past its deadline (then `onDeadline`'s error is thrown; a late answer is dropped, as for `call`).
   */
  callSync<K extends keyof Out & string>(
    method: K,
    params: Out[K]["params"],
    awaitAnswer: (id: number) => ResultFrame | null,
    onDeadline: () => Error,
  ): Out[K]["result"] {
    if (this.closedWith) throw this.closedWith;
    const id = this.nextId++;
    this.send({ kind: "call", id, method, params });
    const answer = awaitAnswer(id);
    if (!answer) throw onDeadline();
    if (!answer.ok) throw fromWireError(answer.error);
    return answer.value as Out[K]["result"];
  }

  /** Feeds one frame that arrived from the other side. */
  receive(frame: Frame): void {
    if (frame.kind === "result") {
      const entry = this.settle(frame.id);
      if (!entry) return; // answered after its deadline: dropped
      if (frame.ok) entry.resolve(frame.value);
      else entry.reject(fromWireError(frame.error));
      return;
    }
    if (frame.kind === "call") void this.dispatch(frame.id, frame.method, frame.params);
  }

  /** Fails every pending call and every later one with `error` (the other side is gone). */
  close(error: Error): void {
    this.closedWith = error;
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(error);
  }

  private settle(id: number): Pending | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    if (entry.timer !== undefined) this.timers.clearTimeout(entry.timer);
    return entry;
  }

  private async dispatch(id: number, method: string, params: unknown): Promise<void> {
    const handler = Object.prototype.hasOwnProperty.call(this.handlers, method)
      ? (this.handlers as Record<string, (p: unknown) => unknown>)[method]
      : undefined;
    try {
      if (!handler) throw new Error(`Unknown call "${method}" across the plugin boundary.`);
      const value = await handler(params);
      this.reply({ kind: "result", id, ok: true, value });
    } catch (error) {
      this.reply({ kind: "result", id, ok: false, error: toWireError(error) });
    }
  }

  private reply(frame: Frame): void {
    if (this.closedWith) return;
    try {
      this.send(frame);
    } catch (error) {
      // A value that cannot be cloned: answer with the reason instead of leaving the call pending.
      if (frame.kind === "result" && frame.ok) {
        this.send({
          kind: "result",
          id: frame.id,
          ok: false,
          error: toWireError(new TypeError(`The answer cannot cross the plugin boundary: ${String(error)}`)),
        });
      }
    }
  }
}
