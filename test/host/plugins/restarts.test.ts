/**
 * Restarts (docs/contract.md §5.4): a dead plugin host comes back and every plugin registers again (a pending
 * pre_tool_call blocks its tool); a plugin that crashes 3 times in 5 minutes stays stopped, with a
 * notice, until plugins.restart; a worker killed while writing state never leaves half a file.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PluginView } from "../../../electron/host/plugins/manager/plugin-manager.js";
import { startTestHost, type TestHost } from "../support/test-host.js";
import { tempHome, waitFor } from "../support/temp-home.js";
import { writePlugin } from "./plugin-rig.js";

let t: TestHost;
let temp: { dir: string; cleanup(): void };
const plugins = async () => ((await t.call("plugins.list")).result as { plugins: PluginView[] }).plugins;
const plugin = async (id: string) => (await plugins()).find((p) => p.id === id)!;
const run = (name: string) =>
  t.host.pluginRegistries.commands.get(name)!.handler("", { sessionId: "s", gatewaySessionKey: "g" });

beforeAll(async () => {
  temp = tempHome("hermes-restarts-");
  const dir = path.join(temp.dir, "plugins");
  writePlugin(dir, "gatekeeper", {
    "index.js": `export function register(ctx) {
      ctx.registerHook("pre_tool_call", () => new Promise(() => {}));
      ctx.registerCommand({ name: "gatekeeper", handler: () => "at the gate" });
    }`,
  });
  writePlugin(dir, "steady", {
    "index.js": `export function register(ctx) { ctx.registerCommand({ name: "steady", handler: () => "steady" }); }`,
  });
  writePlugin(dir, "crasher", {
    "index.js": `export function register(ctx) {
      ctx.registerCommand({ name: "crash", handler: () => process.exit(1) });
      ctx.registerCommand({ name: "write-and-die", handler: () => {
        const big = "x".repeat(100_000);
        for (let i = 0; i < 50; i++) ctx.state.set("k" + i, big + i);
        process.exit(1);
      } });
    }`,
  });
  t = await startTestHost({
    home: temp.dir,
    host: {
      bundledPluginsDir: null,
      pluginTimings: {
        restartBackoffMs: 100,
        heartbeat: { intervalMs: 250, timeoutMs: 3_000 },
        deadlines: { hook: 10_000 },
      },
    },
  });
  await t.host.plugins.ready();
  for (const id of ["gatekeeper", "steady", "crasher"])
    await t.call("plugins.setEnabled", { id, enabled: true });
}, 30_000);

afterAll(async () => {
  await t.dispose();
  temp.cleanup();
});

describe("restarts", () => {
  it("a killed plugin host is started again and every plugin registers again; a pending pre_tool_call blocks", async () => {
    const pid = (await t.host.plugins.pluginHostPid())!;
    expect(pid).toBeGreaterThan(0);
    const gate = t.host.pluginRegistries.hooks.gateTool({
      sessionId: "s",
      gatewaySessionKey: "g",
      toolName: "t",
      args: {},
    });
    await new Promise((r) => setTimeout(r, 100));
    process.kill(pid, "SIGKILL");
    expect(await gate).toMatchObject({ blocked: true, pluginId: "gatekeeper" });
    expect((await gate) as { reason: string }).toMatchObject({
      reason: expect.stringContaining("plugin_unresponsive"),
    });
    await waitFor(
      async () => (await plugins()).every((p) => p.status === "loaded"),
      10_000,
      "every plugin to register again",
    );
    expect(await t.host.plugins.pluginHostPid()).not.toBe(pid);
    expect(await run("steady")).toBe("steady");
    expect(await run("gatekeeper")).toBe("at the gate");
    // Only the plugin that was busy in a call is held to account for the death.
    expect((await plugin("steady")).runtime?.lastError).toMatch(/plugin host was killed \(SIGKILL\)/);
  });

  it("a worker killed while writing state leaves the old or the new file, never half of one", async () => {
    await expect(run("write-and-die")).rejects.toMatchObject({ reason: "plugin_unresponsive" });
    const file = path.join(temp.dir, "plugin-data", "crasher", "state.json");
    await waitFor(async () => (await plugin("crasher")).status === "loaded", 10_000, "the restart");
    const saved = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, string>;
    for (const [key, value] of Object.entries(saved)) expect(value).toBe("x".repeat(100_000) + key.slice(1));
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("3 crashes in 5 minutes: stopped with a notice, until plugins.restart", async () => {
    await t.call("plugins.restart", { id: "crasher" }); // forgets the crash of the test before
    for (let crash = 0; crash < 3; crash++) {
      await waitFor(async () => (await plugin("crasher")).status === "loaded", 10_000, "crasher to run");
      await expect(run("crash")).rejects.toMatchObject({ reason: "plugin_unresponsive" });
    }
    await waitFor(async () => (await plugin("crasher")).runtime?.state === "stopped", 5_000, "stopped");
    const stopped = await plugin("crasher");
    expect(stopped).toMatchObject({
      status: "failed",
      error: expect.stringContaining("Stopped after 3 crashes"),
    });
    expect(stopped.runtime?.lastError).toBe("exited with code 1");
    await new Promise((r) => setTimeout(r, 300));
    expect((await plugin("crasher")).status).toBe("failed"); // no more restarts
    const info = (await t.call("host.info")).result as { notices: { kind: string; message: string }[] };
    expect(info.notices).toContainEqual({
      kind: "plugin_stopped",
      message: expect.stringContaining('The plugin "crasher" was stopped after crashing 3 times'),
    });
    expect(await run("steady")).toBe("steady");

    const restarted = (await t.call("plugins.restart", { id: "crasher" })).result as { plugin: PluginView };
    expect(restarted.plugin).toMatchObject({ status: "loaded", runtime: { state: "running", restarts: 0 } });
    const after = (await t.call("host.info")).result as { notices: { kind: string }[] };
    expect(after.notices.some((n) => n.kind === "plugin_stopped")).toBe(false);
    expect((await t.call("plugins.restart", { id: "nope" })).error?.data.reason).toBe("plugin_not_found");
  });
});
