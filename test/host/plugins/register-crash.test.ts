/**
 * A plugin whose worker ends while `register` runs (docs/contract.md §5.4): `process.exit`, or an
 * uncaught throw that ends the worker, is a crash like any other. It is restarted alone, each
 * crash counts toward "3 in 5 minutes → stopped", and `plugins.list` shows its `runtime` all along
 * (not `failed` with no runtime). A plugin beside it is untouched.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../fixtures/manual-clock.js";
import { waitFor } from "../support/temp-home.js";
import { enable, startRig, writePlugin, type Rig } from "./plugin-rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => rig.dispose());
afterEach(async () => rig.reset());

const steady = `export function register(ctx) { ctx.registerCommand({ name: "steady", handler: () => "steady" }); }`;

describe.each([
  ["process.exit", "exits", `export function register() { process.exit(3); }`, "exited with code 3"],
  [
    "an uncaught throw",
    "throws",
    `export function register() { setTimeout(() => { throw new Error("boom in register"); }); return new Promise(() => {}); }`,
    "boom in register",
  ],
])("a worker that ends in register through %s", (_, id, source, lastError) => {
  it("is restarted alone, shows its runtime, and is stopped after 3 crashes until restarted", async () => {
    writePlugin(rig.userPlugins, id, { "index.js": source });
    writePlugin(rig.userPlugins, "steady", { "index.js": steady });
    enable(rig.settings, id, "steady");
    // The backoff runs on a manual clock, so each restart waits for the test to move time.
    // Heartbeats are not what this is about: they never fall due while the clock jumps.
    const clock = new ManualClock();
    const hour = 3_600_000;
    const manager = rig.manager({
      clock,
      restartBackoffMs: 1_000,
      heartbeat: { intervalMs: hour, timeoutMs: hour },
    });
    await manager.start();
    // The first crash: not "failed with no runtime", but a runtime about to come back.
    const first = manager.get(id);
    expect(first.status).toBe("failed");
    expect(first.runtime).toMatchObject({ state: "restarting", restarts: 0 });
    expect(first.runtime!.lastError).toContain(lastError);
    // agent.log's plugin_crashed line is written as the next backoff is set: the signal to move time.
    const crashes = () => rig.logLines().filter((l) => l.includes(`plugin_crashed plugin=${id} `)).length;
    expect(crashes()).toBe(1);
    clock.advance(999);
    expect(manager.get(id).runtime).toMatchObject({ state: "restarting", restarts: 0 });
    clock.advance(1); // the first backoff: 1 s
    await waitFor(() => crashes() === 2, 15_000, "the second crash in register");
    expect(manager.get(id).runtime).toMatchObject({ state: "restarting", restarts: 1 });
    clock.advance(1_999);
    expect(manager.get(id).runtime).toMatchObject({ state: "restarting", restarts: 1 });
    clock.advance(1); // the second backoff: 2 s
    await waitFor(() => crashes() === 3, 15_000, "the third crash in register");
    const stopped = manager.get(id);
    expect(stopped).toMatchObject({ status: "failed", runtime: { state: "stopped", restarts: 2 } });
    expect(stopped.error).toContain("Stopped after 3 crashes in 5 minutes");
    expect(manager.notices().map((n) => n.kind)).toContain("plugin_stopped");
    expect(manager.get("steady").status).toBe("loaded");
    expect(await rig.commands.get("steady")!.handler("", { sessionId: "s", gatewaySessionKey: "g" })).toBe(
      "steady",
    );
    // plugins.restart clears the history: it crashes again and is back to restarting, not stopped.
    const restarted = await manager.restart(id);
    expect(restarted.runtime).toMatchObject({ state: "restarting", restarts: 0 });
  });
});
