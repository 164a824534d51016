/** `npm run bench -- NAME`: a name that matches no benchmark is an error that lists the names. */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const bench = (...args: string[]) =>
  spawnSync(process.execPath, [join(process.cwd(), "scripts", "bench.mjs"), ...args], { encoding: "utf8" });

describe("bench names", () => {
  it("refuses a name that matches no benchmark, before running any, and lists the names", () => {
    const result = bench("cold_stat", "--json");
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("No benchmark named cold-stat.");
    expect(result.stderr).toContain("cold-start");
    expect(result.stderr).toContain("stream-render");
  });

  it("takes a figure that shares its bench's file by its own name", () => {
    // Refused for the unknown name alone: the figures' names resolve to their files.
    const result = bench(
      "session_search_first",
      "llm_overhead_in_worker",
      "plugin_llm_time_to_answer",
      "cold_stat",
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("No benchmark named cold-stat. Benchmarks:");
  });
});
