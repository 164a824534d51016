import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startGrace } from "../../../electron/web/start-grace.js";

const times = { graceMs: 1500, quietMs: 40 };

describe("web mode's start grace", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("starts the host once the grace is over when nothing happens", () => {
    const start = vi.fn();
    startGrace(start, times);
    vi.advanceTimersByTime(1499);
    expect(start).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("waits while the page's files are being served, then starts once they stop coming", () => {
    const start = vi.fn();
    const grace = startGrace(start, times);
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(30);
      grace.postpone();
    }
    vi.advanceTimersByTime(39);
    expect(start).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("starts before the grace is over when a page loaded (it connects only after running its code)", () => {
    const start = vi.fn();
    const grace = startGrace(start, times);
    vi.advanceTimersByTime(100);
    grace.postpone();
    vi.advanceTimersByTime(40);
    expect(start).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("never starts after a cancel, nor after a postpone that came too late", () => {
    const start = vi.fn();
    const cancelled = startGrace(start, times);
    cancelled.cancel();
    cancelled.postpone();
    const fired = startGrace(start, times);
    vi.advanceTimersByTime(1500);
    fired.postpone();
    vi.advanceTimersByTime(10_000);
    expect(start).toHaveBeenCalledTimes(1);
  });
});
