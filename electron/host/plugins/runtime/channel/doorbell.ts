/**
 * How a worker waits for the host's answer without yielding (docs/contract.md §5.4: `ctx`'s synchronous
 * members stay synchronous, and `register*` refusals are thrown in the call). The plugin host adds 1
 * to a shared Int32 after every frame it posts to the worker and wakes it; the worker, blocked in a
 * synchronous call, sleeps in `Atomics.wait` until the number moves, then takes what arrived off its
 * port with `receiveMessageOnPort`. Messages that are not the awaited answer are handed back, in
 * order, to be handled once the plugin's code yields.
 */
import { receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import type { Frame, ResultFrame } from "../boundary.js";

// Taken before any plugin code runs: a plugin may replace its own globals (Atomics, Date).
const { load, wait, add, notify } = Atomics;
const now = Date.now;

/** Plugin host side: a frame was posted to the worker. */
export function ringDoorbell(bell: Int32Array): void {
  add(bell, 0, 1);
  notify(bell, 0);
}

export class DoorbellReceiver {
  constructor(
    private readonly port: MessagePort,
    private readonly bell: Int32Array,
    /** A frame that arrived while waiting and is not the answer: handled later, in arrival order. */
    private readonly hold: (frame: Frame) => void,
  ) {}

  /** Blocks until the answer to call `id` arrived, or returns null after `timeoutMs`. */
  awaitAnswer(id: number, timeoutMs: number): ResultFrame | null {
    const until = now() + timeoutMs;
    for (;;) {
      // Read before draining: a frame posted after the drain has moved the number, so wait returns at once.
      const rung = load(this.bell, 0);
      for (let got = receiveMessageOnPort(this.port); got; got = receiveMessageOnPort(this.port)) {
        const frame = got.message as Frame;
        if (frame.kind === "result" && frame.id === id) return frame;
        this.hold(frame);
      }
      const left = until - now();
      if (left <= 0) return null;
      wait(this.bell, 0, rung, left);
    }
  }
}
