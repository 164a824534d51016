/**
 * `npm run bench` (scripts/bench.mjs) as a script uses it: it exits 1 when a figure misses its
 * target (`--no-fail` turns that off), keeps every run with its machine in the results folder, and
 * `--compare A B` prints two kept runs side by side. The benches here are small fixtures.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

let results: string;
beforeEach(() => {
  results = mkdtempSync(join(tmpdir(), "hermes-bench-results-"));
});
afterEach(() => rmSync(results, { recursive: true, force: true }));

const bench = (...args: string[]) =>
  spawnSync(process.execPath, [join(process.cwd(), "scripts", "bench.mjs"), ...args], {
    encoding: "utf8",
    env: {
      ...process.env,
      BENCH_DIR: join(process.cwd(), "test", "host", "scripts", "fixtures", "benches"),
      BENCH_RESULTS_DIR: results,
    },
  });

interface KeptRun {
  machine: Record<string, unknown>;
  only: string[];
  figures: { name: string; met: boolean; floor?: number; ratio?: number; error?: string }[];
}
const keptRuns = (): KeptRun[] =>
  readdirSync(results)
    .sort()
    .map((file) => JSON.parse(readFileSync(join(results, file), "utf8")) as KeptRun);

describe("npm run bench: exit code", () => {
  it("exits 0 when every figure met its target", () => {
    const result = bench("fast");
    expect(result.stdout).toContain("fast: 1.05 ms vs 1 ms; target ratio ≤ 1.1x: met");
    expect(result.status).toBe(0);
  });

  it("exits 1 when a figure misses, and names it", () => {
    const result = bench("fast", "slow");
    expect(result.stdout).toContain("slow: 2 ms vs 1 ms; target ratio ≤ 1.1x: missed (ratio was 2)");
    expect(result.stderr).toContain("Missed: slow.");
    expect(result.status).toBe(1);
  });

  it("exits 1 when a bench fails, with the failure as a figure that missed", () => {
    const result = bench("broken", "--json");
    expect(result.status).toBe(1);
    const { figures } = JSON.parse(result.stdout) as KeptRun;
    expect(figures).toEqual([{ name: "broken", error: "the loopback server did not start", met: false }]);
  });

  it("exits 0 on a miss with --no-fail, still saying what missed", () => {
    const result = bench("slow", "--no-fail");
    expect(result.status).toBe(0);
    expect(result.stderr).toContain("Missed: slow.");
  });

  it("refuses an unknown flag before running anything", () => {
    const result = bench("fast", "--no-fial");
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Unknown flag --no-fial.");
    expect(result.stdout).toBe("");
    expect(readdirSync(results)).toEqual([]);
  });
});

describe("npm run bench: --json", () => {
  it("prints each figure with its floor, ratio, target and checks", () => {
    const result = bench("fast", "slow", "--json");
    const { figures } = JSON.parse(result.stdout) as { figures: Record<string, unknown>[] };
    expect(figures).toEqual([
      {
        name: "fast",
        value: 1.05,
        unit: "ms",
        floor: 1,
        ratio: 1.05,
        target: { on: "ratio", max: 1.1 },
        met: true,
        checks: [{ on: "ratio", max: 1.1, measured: 1.05, met: true }],
      },
      expect.objectContaining({ name: "slow", floor: 1, ratio: 2, met: false }),
    ]);
  });
});

describe("npm run bench: runs kept", () => {
  it("keeps each run with the machine it ran on", () => {
    bench("fast");
    bench("slow");
    const runs = keptRuns();
    expect(runs.map((r) => r.only)).toEqual([["fast"], ["slow"]]);
    const machine = runs[0]?.machine;
    expect(machine).toMatchObject({
      cores: expect.any(Number),
      memory_mb: expect.any(Number),
      node: process.version,
    });
    expect(typeof machine?.cpu_model).toBe("string");
    expect(machine).toHaveProperty("chromium");
    expect(runs[1]?.figures).toEqual([expect.objectContaining({ name: "slow", met: false, ratio: 2 })]);
  });

  it("--compare prints two runs side by side", () => {
    bench("fast", "slow");
    bench("fast");
    const result = bench("--compare", "previous", "latest");
    expect(result.status).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^A .*fast\+slow\.json: /);
    expect(lines[1]).toMatch(/^B .*fast\.json: /);
    expect(lines.find((l) => l.startsWith("fast "))).toMatch(
      /1\.05 ms \/ 1 = 1\.05x met\s+1\.05 ms \/ 1 = 1\.05x met\s+\+0\.0 % ratio/,
    );
    expect(lines.find((l) => l.startsWith("slow "))).toMatch(/2 ms \/ 1 = 2x MISSED\s+—/);
  });

  it("--compare names what it could not find and which runs there are", () => {
    bench("fast");
    const result = bench("--compare", "latest", "nope.json");
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('No bench run "nope.json"');
    expect(result.stderr).toMatch(/runs kept: .*-fast\.json/);
  });
});
