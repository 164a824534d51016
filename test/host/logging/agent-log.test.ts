/**
 * logs/agent.log keeps its file open between lines (one write each): every line still lands, in
 * order, redacted; a log the person deleted or moved aside is created again, and a closed log
 * opens again on its next line.
 */
import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../../electron/host/clock.js";
import { createAgentLog } from "../../../electron/host/logging/agent-log.js";
import { tempHome } from "../support/temp-home.js";

const homes: { cleanup(): void }[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const home of homes.splice(0)) home.cleanup();
});

function openLog() {
  const home = tempHome("hermes-agent-log-");
  homes.push(home);
  const log = createAgentLog(home.dir, new ManualClock(), (text) => text.replaceAll("sk-secret", "sk-***"));
  const lines = () => (existsSync(log.file) ? readFileSync(log.file, "utf8").trim().split("\n") : []);
  return { log, lines };
}

describe("agent log", () => {
  it("writes every line in order, redacted, one line each", () => {
    const { log, lines } = openLog();
    log.write("INFO", "first", { key: "sk-secret", n: 1 });
    log.write("WARN", "second", { text: "two\nlines" });
    expect(lines()).toHaveLength(2);
    expect(lines()[0]).toMatch(/ INFO first key=sk-\*\*\* n=1$/);
    expect(lines()[1]).toMatch(/ WARN second text="two\\nlines"$/);
    log.close?.();
  });

  it("creates the file again when the person deleted or moved it", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { log, lines } = openLog();
    log.write("INFO", "before");
    rmSync(log.file);
    vi.setSystemTime(Date.now() + 5_000);
    log.write("INFO", "after_delete");
    expect(lines()).toEqual([expect.stringMatching(/after_delete$/)]);
    renameSync(log.file, `${log.file}.old`);
    vi.setSystemTime(Date.now() + 5_000);
    log.write("INFO", "after_move");
    expect(lines()).toEqual([expect.stringMatching(/after_move$/)]);
    expect(readFileSync(`${log.file}.old`, "utf8")).toMatch(/after_delete\n$/);
    log.close?.();
  });

  it("opens again on a line written after close", () => {
    const { log, lines } = openLog();
    log.write("INFO", "one");
    log.close?.();
    log.write("INFO", "two");
    expect(lines().map((line) => line.split(" ").at(-1))).toEqual(["one", "two"]);
    log.close?.();
  });
});
