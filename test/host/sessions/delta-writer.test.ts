import { describe, expect, it } from "vitest";
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
    const writer = new DeltaWriter(rec.sink, clock);
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
    const writer = new DeltaWriter(rec.sink, clock);
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
    const writer = new DeltaWriter(rec.sink, clock);
    writer.push("a");
    clock.advance(DELTA_BATCH_MS * 3);
    writer.push("b");
    expect(rec.shown()).toBe("ab");
  });

  it("shows what is gathered as soon as the reply ends (a stop keeps everything received), and nothing after", () => {
    const clock = new ManualClock();
    const rec = recordingSink();
    const writer = new DeltaWriter(rec.sink, clock);
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
    const writer = new DeltaWriter(rec.sink, clock);
    writer.push("a");
    writer.push("b");
    clock.advance(DELTA_BATCH_MS);
    expect(rec.shown()).toBe("ab");
    expect(writer.failed).toBeInstanceOf(Error);
  });
});
