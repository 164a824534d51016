/**
 * Idle tasks wired into the real host (docs/contract.md §9.4): the activity they wait on follows the chat's
 * turns and a person's messages through the event hub, a plugin's registerIdleTask reaches the
 * host's scheduler and runs, and a closing host starts no run.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IdleTaskStatusFile } from "../../../electron/host/plugins/idle/idle-task-status.js";
import type { PluginView } from "../../../electron/host/rpc/methods/plugins.js";
import { waitFor } from "../support/temp-home.js";
import { startSessionRig, type SessionRig } from "../sessions/support/session-rig.js";

const HOUR = 3_600_000;

let rig: SessionRig;
beforeEach(async () => {
  // Heartbeats on the manual clock would stop every plugin when it moves by hours.
  rig = await startSessionRig({
    pluginTimings: { heartbeat: { intervalMs: 100 * HOUR, timeoutMs: 200 * HOUR } },
  });
});
afterEach(async () => rig.dispose());

function installPlugin(id: string, body: string): void {
  const dir = path.join(rig.home, "plugins", id);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "plugin.yaml"), `name: ${id}\nversion: 1.0.0\nmain: index.js\n`);
  fs.writeFileSync(path.join(dir, "index.js"), body);
}

describe("idle tasks in the host", () => {
  it("a turn makes the app busy until it ends; a person's message restarts the idle time", async () => {
    const start = rig.clock.now();
    expect(rig.host.activity.idleSince()).toBe(start);
    const { sessionId } = await rig.ok("session.create", {});
    rig.clock.advance(HOUR);
    rig.main.fault({ kind: "stall", afterChunks: 2 });
    const sent = await rig.ok("session.send", { sessionId, text: "Hello" });
    await rig.waitForEvent("session.delta", (p) => p.turnId === sent.turnId);
    expect(rig.host.activity.idleSince()).toBeNull();
    rig.clock.advance(HOUR);
    await rig.ok("session.stop", { sessionId });
    await rig.idle(sessionId);
    expect(rig.host.activity.idleSince()).toBe(start + 2 * HOUR);
  });

  it("a plugin's task registers through its worker, runs when the app is idle, and its record is kept", async () => {
    installPlugin(
      "tidy",
      `export function register(ctx) {
        ctx.registerIdleTask("sweep", async (c) => { ctx.state.set("swept", c.task); }, { intervalHours: 6, minIdleHours: 1, firstRun: "now" });
      }`,
    );
    await rig.host.plugins.rescan();
    await rig.host.plugins.setEnabled("tidy", true);
    expect(rig.host.plugins.get("tidy").status).toBe("loaded");
    await waitFor(() => rig.host.idleTasks.list("tidy").length === 1, 5000, "the task to register");
    rig.clock.advance(HOUR);
    expect(rig.host.idleTasks.list("tidy")[0]!.running).toBe(true);
    await rig.host.idleTasks.settled();
    expect(new IdleTaskStatusFile(rig.home, "tidy").read("sweep")).toMatchObject({ last_status: "ok" });
    await waitFor(() => {
      const file = path.join(rig.home, "plugin-data", "tidy", "state.json");
      return fs.existsSync(file) && JSON.parse(fs.readFileSync(file, "utf8")).swept === "sweep";
    });
  });

  it("plugins.list shows each idle task with its schedule and last run, and keeps them once it stops", async () => {
    installPlugin(
      "chores",
      `export function register(ctx) {
        ctx.registerIdleTask("wash", () => undefined, { intervalHours: 6, minIdleHours: 1, firstRun: "now" });
        ctx.registerIdleTask("dry", () => { throw new Error("no sun today"); }, { intervalHours: 12, minIdleHours: 2, firstRun: "now" });
      }`,
    );
    await rig.host.plugins.rescan();
    await rig.host.plugins.setEnabled("chores", true);
    await waitFor(() => rig.host.idleTasks.list("chores").length === 2, 5000, "the tasks to register");
    const listed = async () => {
      const { plugins } = (await rig.ok("plugins.list", {})) as { plugins: PluginView[] };
      return plugins.find((p) => p.id === "chores")!.idleTasks;
    };
    expect(await listed()).toEqual([
      {
        name: "dry",
        intervalHours: 12,
        minIdleHours: 2,
        running: false,
        lastRun: null,
        lastStatus: null,
        lastError: null,
        runsToday: 0,
      },
      {
        name: "wash",
        intervalHours: 6,
        minIdleHours: 1,
        running: false,
        lastRun: null,
        lastStatus: null,
        lastError: null,
        runsToday: 0,
      },
    ]);
    const changed = rig.events("plugins.changed").length;
    // One hour idle: wash is due; two: dry too. Each run settles before the clock moves on.
    rig.clock.advance(HOUR);
    await rig.host.idleTasks.settled();
    const ranAt = new Date(rig.clock.now()).toISOString();
    rig.clock.advance(HOUR);
    await rig.host.idleTasks.settled();
    const after = await listed();
    expect(after).toEqual([
      expect.objectContaining({
        name: "dry",
        lastStatus: "error",
        lastError: expect.stringContaining("no sun today"),
      }),
      {
        name: "wash",
        intervalHours: 6,
        minIdleHours: 1,
        running: false,
        lastRun: ranAt,
        lastStatus: "ok",
        lastError: null,
        runsToday: 1,
      },
    ]);
    // Each recorded run tells the app, so the Plugins page refreshes.
    expect(rig.events("plugins.changed").length).toBeGreaterThanOrEqual(changed + 2);

    // Disabled, it registers nothing; what its data remembers still shows, without a schedule.
    await rig.host.plugins.setEnabled("chores", false);
    expect((await listed())?.map((t) => [t.name, t.intervalHours, t.lastStatus, t.runsToday])).toEqual([
      ["dry", null, "error", 1],
      ["wash", null, "ok", 1],
    ]);
    const { plugins } = (await rig.ok("plugins.list", {})) as { plugins: PluginView[] };
    expect(plugins.find((p) => p.id === "tidy")?.idleTasks).toBeUndefined();
  });

  it("a closing host starts no run", async () => {
    installPlugin(
      "late",
      `export function register(ctx) {
        ctx.registerIdleTask("never", () => undefined, { intervalHours: 1, minIdleHours: 1, firstRun: "now" });
      }`,
    );
    await rig.host.plugins.rescan();
    await rig.host.plugins.setEnabled("late", true);
    await waitFor(() => rig.host.idleTasks.list("late").length === 1);
    const closing = rig.host.close();
    rig.clock.advance(5 * HOUR);
    await closing;
    expect(new IdleTaskStatusFile(rig.home, "late").read("never")).toMatchObject({ last_run: null });
    await rig.restart(); // dispose closes the host it finds
  });
});
