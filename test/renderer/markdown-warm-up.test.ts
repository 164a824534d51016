// @vitest-environment happy-dom
/**
 * The parser's warm-up runs one sample per call (one per idle callback), so no single idle task
 * parses them all, and it says when it is done.
 */
import { describe, expect, it } from "vitest";
import { warmUpMarkdown } from "../../renderer/src/chat/markdown-parse";

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
