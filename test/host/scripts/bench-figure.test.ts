/**
 * How a figure is judged (scripts/bench/figure.mjs): against its floor's ratio and every further
 * condition of SPEC §12 at once (e.g. rpc_roundtrip's p50 and p99, stream_render's CPU, tasks and
 * "every token shown"); a figure with no number to judge is missed, never met.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the bench scripts, without type declarations.
import { figure, formatFigure } from "../../../scripts/bench/figure.mjs";

interface Judged {
  met: boolean;
  ratio: number | null;
  checks: { on: string; measured: unknown; met: boolean }[];
}
const judge = (f: object) => figure({ name: "f", unit: "ms", text: "t", ...f }) as Judged;

describe("a bench figure", () => {
  it("is met only when its ratio and every further condition hold", () => {
    const rpc = (p99Ratio: number) =>
      judge({
        value: 1.1,
        floor: 1,
        target: { on: "ratio", max: 1.15 },
        also: [{ on: "p99_ratio", max: 1.3 }],
        extra: { p99_ratio: p99Ratio },
      });
    expect(rpc(1.2).met).toBe(true);
    expect(rpc(1.4).met).toBe(false);
    expect(rpc(1.4).checks.map((c) => c.met)).toEqual([true, false]);
  });

  it("judges a condition of equality, as stream_render's every token shown", () => {
    const shown = (all: boolean) =>
      judge({
        value: 2,
        floor: 1,
        target: { on: "ratio", max: 3 },
        also: [{ on: "all_tokens_shown", equals: true }],
        extra: { all_tokens_shown: all },
      });
    expect(shown(true).met).toBe(true);
    expect(shown(false).met).toBe(false);
  });

  it("misses when there is nothing to judge: no floor for a ratio, or a value that is not a number", () => {
    expect(judge({ value: 1, floor: null, target: { on: "ratio", max: 2 } })).toMatchObject({
      ratio: null,
      met: false,
    });
    expect(judge({ value: Number.NaN, target: { on: "value", max: 20 } }).met).toBe(false);
  });

  it("names each condition that missed and what was measured, in its line", () => {
    const f = figure({
      name: "stream_render",
      value: 2,
      unit: "ms",
      floor: 1,
      target: { on: "ratio", max: 3 },
      also: [{ on: "tasks_over_16ms_cpu", max: 0, unit: "tasks" }],
      extra: { tasks_over_16ms_cpu: 2 },
      text: "2 ms per 1,000 tokens",
    }) as object;
    expect(formatFigure(f)).toBe(
      "stream_render: 2 ms per 1,000 tokens; target ratio ≤ 3x, tasks_over_16ms_cpu ≤ 0 tasks: missed (tasks_over_16ms_cpu was 2)",
    );
  });
});
