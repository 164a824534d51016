/**
 * Spare workers (runtime/plugin-host-main.ts): a host whose config already enables plugins starts
 * the plugin host during its own start-up and asks for one spare worker per enabled plugin with
 * the default heap cap. A plugin with its own `heap_mb` never takes a spare (its cap holds), and
 * every plugin still learns its own identity.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { PluginView } from "../../../electron/host/plugins/manager/plugin-manager.js";
import { parsePluginHostArgs } from "../../../electron/host/plugins/runtime/launch/plugin-host-args.js";
import {
  spawnNodePluginHost,
  type SpawnPluginHost,
} from "../../../electron/host/plugins/runtime/launch/plugin-host-process.js";
import { startTestHost, type TestHost } from "../support/test-host.js";
import { tempHome, waitFor } from "../support/temp-home.js";
import { writePlugin } from "./plugin-rig.js";

let t: TestHost | undefined;
let temp: { dir: string; cleanup(): void } | undefined;
afterEach(async () => {
  await t?.dispose();
  temp?.cleanup();
  t = undefined;
});

/**
 * Starts the host on `home` (no bundled plugins) with plugin hosts spawned as usual, and answers the
 * arguments of each spawn (the spare workers asked for) once the plugins are ready. The host is `t`,
 * disposed after the test.
 */
async function startHostRecordingSpawns(home: string): Promise<{ host: TestHost; spawned: string[][] }> {
  const spawned: string[][] = [];
  const spawn: SpawnPluginHost = (entry, options) => {
    spawned.push(options.args ?? []);
    return spawnNodePluginHost(entry, options);
  };
  const host = await startTestHost({ home, host: { bundledPluginsDir: null, pluginHostLaunch: { spawn } } });
  t = host;
  await host.host.plugins.ready();
  return { host, spawned };
}

describe("spare workers", () => {
  it("are asked for at start-up, one per enabled default-heap plugin; a plugin's own heap cap still holds", async () => {
    temp = tempHome("hermes-spares-");
    const plugins = path.join(temp.dir, "plugins");
    for (const id of ["alpha", "beta"]) {
      writePlugin(plugins, id, {
        "index.js": `import { getHeapStatistics } from "node:v8";
          export function register(ctx) {
            ctx.registerCommand({ name: "${id}-who", handler: () => ctx.pluginId });
            ctx.registerCommand({ name: "${id}-heap", handler: () => String(getHeapStatistics().heap_size_limit / 1048576) });
          }`,
      });
    }
    // First in load order (ids sort), so a wrong match would hand it a spare.
    writePlugin(plugins, "a-tight", {
      "index.js": `import { getHeapStatistics } from "node:v8";
        export function register(ctx) {
        ctx.registerCommand({ name: "tight-heap", handler: () => String(getHeapStatistics().heap_size_limit / 1048576) });
        ctx.registerCommand({ name: "hoard", handler: () => { const hoard = []; for (;;) hoard.push(new Array(100000).fill(Math.random())); } });
      }`,
    });
    fs.writeFileSync(
      path.join(temp.dir, "config.yaml"),
      "plugins:\n  enabled: [alpha, beta, a-tight]\n  entries:\n    a-tight:\n      limits:\n        heap_mb: 32\n",
    );
    const { host, spawned } = await startHostRecordingSpawns(temp.dir);
    const list = (await host.call("plugins.list")).result as { plugins: PluginView[] };
    expect(list.plugins.map((p) => [p.id, p.status])).toEqual([
      ["a-tight", "loaded"],
      ["alpha", "loaded"],
      ["beta", "loaded"],
    ]);
    // Two spares of the default 256 MB heap: "a-tight" has its own cap.
    expect(spawned.map((args) => parsePluginHostArgs(args).spares)).toEqual([{ count: 2, heapMb: 256 }]);
    const context = { sessionId: "s", gatewaySessionKey: "g" };
    const commands = host.host.pluginRegistries.commands;
    await expect(commands.get("alpha-who")!.handler("", context)).resolves.toBe("alpha");
    await expect(commands.get("beta-who")!.handler("", context)).resolves.toBe("beta");
    // The worker's real heap limit (old generation plus the young one), not just the reason's wording.
    const heapMb = async (name: string) => Number(await commands.get(name)!.handler("", context));
    expect(await heapMb("alpha-heap")).toBeGreaterThan(256);
    expect(await heapMb("tight-heap")).toBeLessThan(100);
    await expect(commands.get("hoard")!.handler("", context)).rejects.toThrow(/heap cap 32 MB/);
    await waitFor(async () => {
      const tight = ((await host.call("plugins.list")).result as { plugins: PluginView[] }).plugins.find(
        (p) => p.id === "a-tight",
      );
      return /heap cap 32 MB/.test(JSON.stringify(tight));
    });
  });

  it("no enabled plugin: no plugin host is started with the host", async () => {
    temp = tempHome("hermes-spares-");
    const { spawned } = await startHostRecordingSpawns(temp.dir);
    expect(spawned).toEqual([]);
  });
});
