import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startGrace } from "../../../electron/web/start-grace.js";

describe("web mode's start grace", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("starts the host once the grace is over when nothing happens", () => {
    const start = vi.fn();
    startGrace(start, 1500);
    vi.advanceTimersByTime(1499);
    expect(start).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("waits while the page's files are being served, then starts", () => {
    const start = vi.fn();
    const grace = startGrace(start, 1500);
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(1000);
      grace.postpone();
    }
    vi.advanceTimersByTime(1499);
    expect(start).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("never starts after a cancel, nor after a postpone that came too late", () => {
    const start = vi.fn();
    const cancelled = startGrace(start, 1500);
    cancelled.cancel();
    cancelled.postpone();
    const fired = startGrace(start, 1500);
    vi.advanceTimersByTime(1500);
    fired.postpone();
    vi.advanceTimersByTime(10_000);
    expect(start).toHaveBeenCalledTimes(1);
  });
});
