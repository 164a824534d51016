/**
 * logs/agent.log keeps its file open between lines (one write each): every line still lands, in
 * order, redacted; a log the person deleted or moved aside is created again, and a closed log
 * opens again on its next line. A queued line (`writeSoon`) keeps the time it was queued, lands
 * moments later (a burst in one write), before any later line, and is not lost when the process
 * exits first.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../fixtures/manual-clock.js";
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

  it("writes a queued line moments later, stamped when it was queued, redacted", async () => {
    const { log, lines } = openLog();
    const clock = new ManualClock(Date.parse("2026-12-01T10:00:00.000Z"));
    const stamped = createAgentLog(log.file.replace(/logs\/agent\.log$/, ""), clock, (text) =>
      text.replaceAll("sk-secret", "sk-***"),
    );
    stamped.writeSoon("INFO", "queued", { key: "sk-secret", text: "a\nb" });
    clock.advance(5_000);
    expect(lines()).toEqual([]);
    await vi.waitFor(() =>
      expect(lines()).toEqual(['2026-12-01T10:00:00.000Z INFO queued key=sk-*** text="a\\nb"']),
    );
    stamped.close?.();
  });

  it("keeps the order: queued lines land before a later write, on flush and on close", () => {
    const { log, lines } = openLog();
    log.writeSoon("INFO", "one");
    log.write("INFO", "two");
    expect(lines().map((line) => line.split(" ").at(-1))).toEqual(["one", "two"]);
    log.writeSoon("INFO", "three");
    log.flush();
    expect(lines()).toHaveLength(3);
    log.writeSoon("INFO", "four");
    log.close?.();
    expect(lines().map((line) => line.split(" ").at(-1))).toEqual(["one", "two", "three", "four"]);
  });

  it("writes a long burst of queued lines at once, in order", () => {
    const { log, lines } = openLog();
    for (let n = 0; n < 256; n++) log.writeSoon("INFO", "burst", { n });
    expect(lines()).toHaveLength(256);
    expect(lines().map((line) => Number(line.split("n=")[1]))).toEqual([...Array(256).keys()]);
    log.close?.();
  });

  it("writes queued lines when the process exits before they are due", () => {
    const home = tempHome("hermes-agent-log-exit-");
    homes.push(home);
    const module = fileURLToPath(new URL("../../../electron/host/logging/agent-log.ts", import.meta.url));
    const script = [
      `import { createAgentLog } from ${JSON.stringify(module)};`,
      `const log = createAgentLog(${JSON.stringify(home.dir)}, { now: () => Date.now() }, (t) => t);`,
      `log.writeSoon("INFO", "last_words", { n: 1 });`,
      `if (process.argv.includes("crash")) throw new Error("boom");`,
      `process.exit(0);`,
    ].join("\n");
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, ...args], {
        encoding: "utf8",
      });
    const exited = run();
    expect(exited.stderr).toBe("");
    expect(exited.status).toBe(0);
    expect(readFileSync(`${home.dir}/logs/agent.log`, "utf8")).toMatch(/ INFO last_words n=1\n$/);
    // An uncaught error ends the process too: the line is still written.
    const crashed = run("crash");
    expect(crashed.stderr).toContain("boom");
    expect(crashed.status).toBe(1);
    expect(readFileSync(`${home.dir}/logs/agent.log`, "utf8").match(/last_words/g)).toHaveLength(2);
  });
});
