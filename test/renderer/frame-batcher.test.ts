/**
 * The pacing of streamed text: the first text after a pause shows at the next frame; while text
 * keeps coming, updates come every other 60 Hz frame, never two within the interval and never
 * later than the first frame after it; a forced flush and the text itself are never held back.
 */
import { describe, expect, it } from "vitest";
import { DeltaBatcher, minUpdateIntervalMs } from "../../renderer/src/stores/chat/frame-batcher";

/** Frames run by hand on a clock the test moves: a 60 Hz display unless told otherwise. */
function display(frameMs = 1000 / 60) {
  let time = 1000;
  let queue: Array<() => void> = [];
  return {
    now: () => time,
    schedule: (callback: () => void) => {
      queue.push(callback);
      return () => void (queue = queue.filter((queued) => queued !== callback));
    },
    frame() {
      time += frameMs;
      const due = queue;
      queue = [];
      for (const callback of due) callback();
    },
    pending: () => queue.length,
  };
}

function batcher(screen = display()) {
  const updates: Array<{ at: number; text: string }> = [];
  const deltas = new DeltaBatcher(
    (batch) => updates.push({ at: screen.now(), text: batch.get("t1") ?? "" }),
    {
      schedule: screen.schedule,
      now: screen.now,
    },
  );
  return { screen, deltas, updates };
}

describe("DeltaBatcher pacing", () => {
  it("shows the first text after a pause at the next frame", () => {
    const { screen, deltas, updates } = batcher();
    deltas.push("t1", "Hello");
    screen.frame();
    expect(updates).toEqual([{ at: screen.now(), text: "Hello" }]);

    // A pause longer than the interval: the next text again shows at once.
    for (let i = 0; i < 3; i++) screen.frame();
    deltas.push("t1", " again");
    screen.frame();
    expect(updates.map((update) => update.text)).toEqual(["Hello", " again"]);
    expect(screen.pending()).toBe(0);
  });

  it("while text keeps coming, updates every other frame with every word, in order", () => {
    const { screen, deltas, updates } = batcher();
    const words: string[] = [];
    for (let frame = 0; frame < 60; frame++) {
      for (let i = 0; i < 5; i++) {
        const word = `w${frame * 5 + i} `;
        words.push(word);
        deltas.push("t1", word);
      }
      screen.frame();
    }
    screen.frame();
    expect(updates.map((update) => update.text).join("")).toBe(words.join(""));
    const gaps = updates.slice(1).map((update, i) => update.at - updates[i]!.at);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(minUpdateIntervalMs);
      expect(gap).toBeLessThan(34); // the second frame, not a later one
    }
    expect(updates.length).toBeGreaterThanOrEqual(30);
  });

  it("on a 120 Hz display keeps the same pace in time", () => {
    const { screen, deltas, updates } = batcher(display(1000 / 120));
    for (let frame = 0; frame < 120; frame++) {
      deltas.push("t1", "x");
      screen.frame();
    }
    const gaps = updates.slice(1).map((update, i) => update.at - updates[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(minUpdateIntervalMs);
    expect(Math.max(...gaps)).toBeLessThan(34);
  });

  it("a forced flush applies at once, whatever the pace, and leaves nothing scheduled", () => {
    const { screen, deltas, updates } = batcher();
    deltas.push("t1", "a");
    screen.frame();
    deltas.push("t1", "b");
    deltas.flush(); // an event that must see the text in place (the reply's final message)
    expect(updates.map((update) => update.text)).toEqual(["a", "b"]);
    expect(screen.pending()).toBe(0);
    screen.frame();
    expect(updates).toHaveLength(2);
  });

  it("discarded text is never applied", () => {
    const { screen, deltas, updates } = batcher();
    deltas.push("t1", "a");
    screen.frame();
    deltas.push("t1", "stale");
    screen.frame(); // held back by the pace
    deltas.discard();
    screen.frame();
    screen.frame();
    expect(updates.map((update) => update.text)).toEqual(["a"]);
  });
});
