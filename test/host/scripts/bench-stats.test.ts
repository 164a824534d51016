/**
 * `steppedPercentile` (scripts/bench/stats.mjs): percentiles of times read from a clock that steps
 * by 0.1 ms, as a page's `performance.now()` does in Chromium, where a time between two steps reads
 * as either in proportion to how close it is.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the bench scripts, without type declarations.
import { percentile, steppedPercentile } from "../../../scripts/bench/stats.mjs";
import { seededRandom } from "../../fixtures/seeded-random.js";

const STEP = 0.1;

/** What a stepped clock with a jittered edge reads for each true time (floating point as Chromium gives it). */
function readOnSteppedClock(times: number[], random: () => number): number[] {
  return times.map((time) => {
    const below = Math.floor(time / STEP);
    const up = random() < time / STEP - below;
    return (below + (up ? 1 : 0)) * STEP;
  });
}

describe("steppedPercentile", () => {
  it("finds a time between two steps that the plain percentile rounds to one of them", () => {
    const random = seededRandom(3);
    for (const truth of [0.52, 0.55, 0.58, 1.23]) {
      const readings = readOnSteppedClock(Array<number>(4000).fill(truth), random);
      const plain = percentile(readings, 50) as number;
      const stepped = steppedPercentile(readings, 50, STEP) as number;
      expect(Math.abs(stepped - truth)).toBeLessThan(0.012);
      // The plain median is a step: off by up to half a step.
      expect(Math.round(plain / STEP) * STEP).toBeCloseTo(plain, 9);
    }
  });

  it("follows a spread of times: the median of 0.4–0.8 ms is 0.6 ms", () => {
    const random = seededRandom(5);
    const times = Array.from({ length: 8000 }, () => 0.4 + random() * 0.4);
    const readings = readOnSteppedClock(times, random);
    expect(steppedPercentile(readings, 50, STEP)).toBeCloseTo(0.6, 1);
    expect(steppedPercentile(readings, 90, STEP)).toBeGreaterThan(0.7);
    expect(steppedPercentile(readings, 90, STEP)).toBeLessThan(0.8);
  });

  it("takes the plain percentile of readings off the step grid (a finer clock)", () => {
    const readings = [0.512, 0.533, 0.547, 0.561, 0.589];
    expect(steppedPercentile(readings, 50, STEP)).toBe(percentile(readings, 50));
  });

  it("is NaN for no readings", () => {
    expect(steppedPercentile([], 50, STEP)).toBeNaN();
  });
});
