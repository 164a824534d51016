import { describe, expect, it } from "vitest";
import { DeltaFrame } from "../../../electron/host/sessions/turns/delta-frame.js";
import { ManualClock } from "../../fixtures/manual-clock.js";
import { DELTA_BATCH_MS, DeltaWriter } from "../../../electron/host/sessions/turns/delta-writer.js";

/** A sink that records what was written and shown, in the order it happened. */
function recordingSink(failWrites = false) {
  const calls: string[] = [];
  return {
    calls,
    written: () =>
      calls
        .filter((c) => c.startsWith("write:"))
        .map((c) => c.slice(6))
        .join(""),
    shown: () =>
      calls
        .filter((c) => c.startsWith("emit:"))
        .map((c) => c.slice(5))
        .join(""),
    sink: {
      write(text: string) {
        if (failWrites) throw new Error("disk full");
        calls.push(`write:${text}`);
      },
      emit(text: string) {
        calls.push(`emit:${text}`);
      },
    },
  };
}

describe("DeltaWriter", () => {
  it("lets the first chunk out at once and gathers what follows within a frame into one batch, written before shown", () => {
    const clock = new ManualClock();
    const rec = recordingSink();
    const writer = new DeltaWriter(rec.sink, new DeltaFrame(undefined, clock));
    writer.push("a");
    expect(rec.calls).toEqual(["write:a", "emit:a"]);
    writer.push("b");
    writer.push("c");
    clock.advance(DELTA_BATCH_MS - 1);
    expect(rec.calls).toHaveLength(2);
    clock.advance(1);
    expect(rec.calls).toEqual(["write:a", "emit:a", "write:bc", "emit:bc"]);
  });

  it("sends a steady stream once a frame, every chunk complete and in order", () => {
    const clock = new ManualClock();
    const rec = recordingSink();
    const writer = new DeltaWriter(rec.sink, new DeltaFrame(undefined, clock));
    const pieces = Array.from({ length: 1000 }, (_, i) => `w${i} `);
    // 1,000 chunks over 100 ms: ten a millisecond, as a fast provider's reads come in.
    pieces.forEach((piece, i) => {
      writer.push(piece);
      if (i % 10 === 9) clock.advance(1);
    });
    writer.finish();
    expect(rec.shown()).toBe(pieces.join(""));
    expect(rec.written()).toBe(pieces.join(""));
    const batches = rec.calls.filter((c) => c.startsWith("emit:")).length;
    expect(batches).toBeLessThanOrEqual(Math.ceil(100 / DELTA_BATCH_MS) + 2);
    // Each batch is on disk before it is shown.
    rec.calls.forEach((call, i) => {
      if (call.startsWith("emit:")) expect(rec.calls[i - 1]).toBe(`write:${call.slice(5)}`);
    });
  });

  it("lets a chunk out at once when the last window closed on nothing (a slow stream is not delayed)", () => {
    const clock = new ManualClock();
    const rec = recordingSink();
    const writer = new DeltaWriter(rec.sink, new DeltaFrame(undefined, clock));
    writer.push("a");
    clock.advance(DELTA_BATCH_MS * 3);
    writer.push("b");
    expect(rec.shown()).toBe("ab");
  });

  it("shows what is gathered as soon as the reply ends (a stop keeps everything received), and nothing after", () => {
    const clock = new ManualClock();
    const rec = recordingSink();
    const writer = new DeltaWriter(rec.sink, new DeltaFrame(undefined, clock));
    writer.pushWritten("first ");
    writer.push("second ");
    writer.push("third");
    expect(rec.shown()).toBe("first ");
    writer.finish();
    expect(rec.shown()).toBe("first second third");
    expect(rec.written()).toBe("second third");
    writer.push("late");
    clock.advance(DELTA_BATCH_MS * 2);
    expect(rec.shown()).toBe("first second third");
  });

  it("still shows text whose write failed, and keeps the first failure", () => {
    const clock = new ManualClock();
    const rec = recordingSink(true);
    const writer = new DeltaWriter(rec.sink, new DeltaFrame(undefined, clock));
    writer.push("a");
    writer.push("b");
    clock.advance(DELTA_BATCH_MS);
    expect(rec.shown()).toBe("ab");
    expect(writer.failed).toBeInstanceOf(Error);
  });

  it("writes every reply's batch of a frame in one commit, each on disk before any is shown", () => {
    const clock = new ManualClock();
    const calls: string[] = [];
    const frame = new DeltaFrame((writes) => {
      calls.push("begin");
      writes();
      calls.push("commit");
    }, clock);
    const sink = (name: string) => ({
      write: (text: string) => void calls.push(`write:${name}:${text}`),
      emit: (text: string) => void calls.push(`emit:${name}:${text}`),
    });
    const one = new DeltaWriter(sink("one"), frame);
    const two = new DeltaWriter(sink("two"), frame);
    one.push("a");
    two.push("x");
    calls.length = 0;
    one.push("b");
    two.push("y");
    clock.advance(DELTA_BATCH_MS);
    expect(calls).toEqual(["begin", "write:one:b", "write:two:y", "commit", "emit:one:b", "emit:two:y"]);
    one.finish();
    two.finish();
  });

  it("writes each reply on its own when the frame's commit fails: each keeps its own failure, the others land", () => {
    const clock = new ManualClock();
    const written: string[] = [];
    const frame = new DeltaFrame((writes) => {
      const before = written.length;
      try {
        writes();
      } catch (error) {
        written.length = before; // rolled back
        throw error;
      }
    }, clock);
    const shown: string[] = [];
    const good = new DeltaWriter(
      { write: (t) => void written.push(t), emit: (t) => void shown.push(t) },
      frame,
    );
    const full = new DeltaWriter(
      {
        write: () => {
          throw new Error("disk full");
        },
        emit: (t) => void shown.push(t),
      },
      frame,
    );
    good.push("a");
    full.push("x");
    good.push("b");
    full.push("y");
    clock.advance(DELTA_BATCH_MS);
    expect(written).toEqual(["a", "b"]);
    expect(shown).toEqual(["a", "x", "b", "y"]);
    expect(good.failed).toBeNull();
    expect(full.failed).toBeInstanceOf(Error);
  });

  it("stops its timer once every reply left the frame", () => {
    const clock = new ManualClock();
    const rec = recordingSink();
    const frame = new DeltaFrame(undefined, clock);
    const writer = new DeltaWriter(rec.sink, frame);
    writer.push("a");
    writer.finish();
    expect(frame.has(writer)).toBe(false);
    clock.advance(DELTA_BATCH_MS * 4);
    expect(rec.calls).toEqual(["write:a", "emit:a"]);
  });
});
