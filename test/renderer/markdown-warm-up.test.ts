// @vitest-environment happy-dom
/**
 * The parser's warm-up runs one sample per call (one per idle callback), so no single idle task
 * parses them all, and it says when it is done; it runs only in idle periods with no frame due.
 */
import { describe, expect, it } from "vitest";
import { preloadMarkdown } from "../../renderer/src/chat/markdown/lazy-markdown";
import { warmUpMarkdown } from "../../renderer/src/chat/markdown/markdown-parse";

describe("warming up the Markdown parser", () => {
  it("takes one sample per step and stops after the last", () => {
    const more: boolean[] = [];
    for (let step = 0; step < 10; step++) {
      const left = warmUpMarkdown(step);
      more.push(left);
      if (!left) break;
    }
    expect(more.length).toBeGreaterThan(1);
    expect(more.slice(0, -1).every(Boolean)).toBe(true);
    expect(more[more.length - 1]).toBe(false);
    expect(warmUpMarkdown(more.length)).toBe(false);
  });
});

describe("preloading the Markdown renderer", () => {
  it("warms the parser up only in idle periods with no frame due, one sample each", async () => {
    const samples = (() => {
      let step = 0;
      while (warmUpMarkdown(step)) step++;
      return step + 1;
    })();
    const queued: IdleRequestCallback[] = [];
    const original = globalThis.requestIdleCallback;
    globalThis.requestIdleCallback = (callback: IdleRequestCallback) => queued.push(callback);
    try {
      await preloadMarkdown();
      const idle = (ms: number) => {
        const callback = queued.shift();
        callback?.({ didTimeout: false, timeRemaining: () => ms });
        return callback !== undefined;
      };
      // Between a stream's frames (idle periods of a few ms) it only waits for a longer one.
      for (let frame = 0; frame < 20; frame++) expect(idle(8)).toBe(true);
      // Then one sample per long idle period, and it is done.
      let longPeriods = 0;
      while (idle(50)) longPeriods++;
      expect(longPeriods).toBe(samples);
    } finally {
      globalThis.requestIdleCallback = original;
    }
  });
});
