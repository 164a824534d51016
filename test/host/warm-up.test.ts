/**
 * The host's warm-up (electron/host/warm-up.ts): its steps run once the delay is over, in order,
 * each in a task of its own; a failing step is logged and the rest still run; closing the host
 * before or during it stops it. And what the steps do: Node's fetch machinery is loaded by the
 * HTTP step, ahead of the first provider request.
 */
import { describe, expect, it } from "vitest";
import { warmUpHttpFetch } from "../../electron/host/llm/http-fetch.js";
import { scheduleWarmUp } from "../../electron/host/warm-up.js";

function memoryLog() {
  const lines: Array<{ level: string; event: string; fields?: unknown }> = [];
  return {
    lines,
    write: (level: string, event: string, fields?: unknown) => void lines.push({ level, event, fields }),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("scheduleWarmUp", () => {
  it("runs nothing before the delay, then every step in order, each in a task of its own", async () => {
    const ran: string[] = [];
    const log = memoryLog();
    const warmUp = scheduleWarmUp(
      [
        {
          name: "a",
          // Work that comes in during a step (a call from the window) runs before the next step.
          run: () => void (ran.push("a"), setImmediate(() => ran.push("other task"))),
        },
        { name: "b", run: async () => void ran.push("b") },
        { name: "c", run: () => void ran.push("c") },
      ],
      log,
      40,
    );
    await sleep(10);
    expect(ran).toEqual([]);
    await warmUp.done;
    expect(ran).toEqual(["a", "other task", "b", "c"]);
    expect(log.lines).toEqual([]);
  });

  it("logs a failing step by name and still runs the others", async () => {
    const ran: string[] = [];
    const log = memoryLog();
    await scheduleWarmUp(
      [
        {
          name: "broken",
          run: () => {
            throw new Error("no such thing");
          },
        },
        { name: "after", run: () => void ran.push("after") },
      ],
      log,
      0,
    ).done;
    expect(ran).toEqual(["after"]);
    expect(log.lines).toEqual([
      { level: "WARN", event: "warm_up_failed", fields: { step: "broken", error: "Error: no such thing" } },
    ]);
  });

  it("cancelled before the delay (the host closed), runs nothing and settles", async () => {
    const ran: string[] = [];
    const warmUp = scheduleWarmUp([{ name: "a", run: () => void ran.push("a") }], memoryLog(), 20);
    warmUp.cancel();
    await warmUp.done;
    await sleep(40);
    expect(ran).toEqual([]);
  });

  it("cancelled during a step, runs no further step", async () => {
    const ran: string[] = [];
    let cancel = () => {};
    const warmUp = scheduleWarmUp(
      [
        { name: "a", run: () => void (ran.push("a"), cancel()) },
        { name: "b", run: () => void ran.push("b") },
      ],
      memoryLog(),
      0,
    );
    cancel = warmUp.cancel;
    await warmUp.done;
    await sleep(10);
    expect(ran).toEqual(["a"]);
  });
});

describe("warmUpHttpFetch", () => {
  it("loads Node's fetch machinery, which this process had not loaded", async () => {
    // Node's list of the internal modules it has loaded (not in its types).
    const loaded = (process as unknown as { moduleLoadList: string[] }).moduleLoadList;
    const undici = () => loaded.filter((module) => module.includes("undici"));
    expect(undici()).toEqual([]); // each test file runs in a fresh process (vitest forks)
    await warmUpHttpFetch();
    expect(undici().length).toBeGreaterThan(0);
  });
});
