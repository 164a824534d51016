/**
 * The plugin host's pipe to the app, used by a plugin (docs/contract.md §5.4): Node's permission
 * model does not check file descriptors, so a plugin's worker can write to and read from fd 3.
 * Garbage there must not throw inside the host, a forged frame naming another plugin must never
 * be acted on, and what a plugin steals from the pipe must be unreadable; each time the channel is
 * given up and the plugin host started again, and every plugin registers again. The writes and
 * the reads run both with the plugin host confined as a process and with only its workers confined
 * (the packaged app's mode: runtime/launch/permission-flags.ts); the descriptors are the same in both.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Confinement } from "../../../electron/host/plugins/runtime/launch/permission-flags.js";
import type { PluginView } from "../../../electron/host/plugins/manager/plugin-manager.js";
import { startTestHost, type TestHost } from "../support/test-host.js";
import { tempHome, waitFor } from "../support/temp-home.js";
import { writePlugin } from "./plugin-rig.js";

let t: TestHost;
let temp: { dir: string; cleanup(): void };
const plugins = async () => ((await t.call("plugins.list")).result as { plugins: PluginView[] }).plugins;
const plugin = async (id: string) => (await plugins()).find((p) => p.id === id)!;
const run = (name: string, args = "") =>
  t.host.pluginRegistries.commands.get(name)!.handler(args, { sessionId: "s", gatewaySessionKey: "g" });
const allLoaded = () =>
  waitFor(
    async () => (await plugins()).every((p) => p.status === "loaded"),
    15_000,
    "every plugin to register again",
  ).catch(async (error: Error) => {
    throw new Error(`${error.message}: ${JSON.stringify(await plugins())}`);
  });

/** What Node's own IPC channel carried before: a JSON line naming another plugin, asking to set its state. */
const forgedLine = JSON.stringify({
  kind: "frame",
  pluginId: "bystander",
  frame: { kind: "call", id: 424242, method: "state.set", params: { key: "forged", value: "yes" } },
});

function startHostWithPlugins(confinement: Confinement) {
  return async () => {
    temp = tempHome("hermes-channel-");
    const dir = path.join(temp.dir, "plugins");
    writePlugin(dir, "bystander", {
      "index.js": `export function register(ctx) {
      ctx.registerCommand({ name: "bystander", handler: (args) => "heard " + args.length + " chars; forged=" + String(ctx.state.get("forged")) });
    }`,
    });
    writePlugin(dir, "forger", {
      "index.js": `import fs from "node:fs";
    export function register(ctx) {
      ctx.registerCommand({ name: "garbage", handler: () => { fs.writeSync(3, "garbage, not a frame\\n"); return "wrote"; } });
      ctx.registerCommand({ name: "forge", handler: () => { fs.writeSync(3, ${JSON.stringify(forgedLine + "\n")}); return "forged"; } });
      // Out of any call, so no plugin is busy when the channel breaks; and again after every restart.
      if (ctx.state.get("keep-tampering")) setTimeout(() => fs.writeSync(3, "garbage from a timer\\n"), 50);
      ctx.registerCommand({ name: "keep-tampering", handler: () => { ctx.state.set("keep-tampering", true); setTimeout(() => fs.writeSync(3, "garbage\\n"), 300); return "armed"; } });
    }`,
    });
    writePlugin(dir, "thief", {
      "index.js": `import fs from "node:fs";
    export function register(ctx) {
      ctx.registerCommand({ name: "steal", handler: () => {
        const out = new URL("../../plugin-data/thief/stolen.bin", import.meta.url);
        fs.mkdirSync(new URL("./", out), { recursive: true });
        fs.writeFileSync(out, "");
        const buffer = Buffer.alloc(65536);
        let stolen = 0;
        const until = Date.now() + 4000;
        // The pipe is non-blocking: spin on it, racing the plugin host's own reads.
        while (Date.now() < until && stolen < 4096) {
          try {
            const n = fs.readSync(3, buffer, 0, buffer.length, null);
            if (n > 0) { fs.appendFileSync(out, buffer.subarray(0, n)); stolen += n; }
          } catch {}
        }
        return stolen;
      } });
    }`,
    });
    t = await startTestHost({
      home: temp.dir,
      host: {
        bundledPluginsDir: null,
        pluginTimings: { restartBackoffMs: 100 },
        pluginHostLaunch: { confinement },
      },
    });
    await t.host.plugins.ready();
    for (const id of ["bystander", "forger", "thief"])
      await t.call("plugins.setEnabled", { id, enabled: true });
  };
}

const ids = ["bystander", "forger", "thief"];

describe.each<Confinement>(["process", "worker"])(
  "a plugin that uses the plugin host's pipe to the app (confined per %s)",
  (confinement) => {
    beforeAll(startHostWithPlugins(confinement), 30_000);
    afterAll(async () => {
      await t.dispose();
      temp.cleanup();
    });

    // Each breakage counts against every plugin (which one did it cannot be told): forgive the last.
    beforeEach(async () => {
      for (const id of ids) await t.call("plugins.restart", { id });
      await allLoaded();
    });

    it("garbage on it never throws inside the host: the plugin host is started again, every plugin registers again", async () => {
      const pid = await t.host.plugins.pluginHostPid();
      await expect(run("garbage")).rejects.toMatchObject({ reason: "plugin_unresponsive" });
      expect((await t.call("host.info", {}, "another-connection")).result).toBeTruthy();
      await allLoaded();
      expect(await t.host.plugins.pluginHostPid()).not.toBe(pid);
      expect((await plugin("forger")).runtime?.lastError).toMatch(/channel to the app was tampered with/);
      expect(await run("bystander", "hi")).toBe("heard 2 chars; forged=undefined");
    });

    // The rest is the same whatever confines the workers: once per run is enough.
    if (confinement === "process") {
      it("a frame forged in another plugin's name is never acted on", async () => {
        const pid = await t.host.plugins.pluginHostPid();
        await expect(run("forge")).rejects.toMatchObject({ reason: "plugin_unresponsive" });
        await allLoaded();
        expect(await t.host.plugins.pluginHostPid()).not.toBe(pid);
        expect(await run("bystander")).toBe("heard 0 chars; forged=undefined");
        const state = path.join(temp.dir, "plugin-data", "bystander", "state.json");
        expect(fs.existsSync(state) ? fs.readFileSync(state, "utf8") : "").not.toContain("forged");
      });
    }

    it("what it steals from the pipe is sealed: another plugin's arguments are not in it", async () => {
      const marker = "MARKER-" + "7".repeat(24);
      const pid = await t.host.plugins.pluginHostPid();
      const stealing = Promise.resolve(run("steal")).catch(() => "ended with the plugin host");
      // Traffic for the bystander, carrying the marker, while the thief reads.
      const until = Date.now() + 4_000;
      while (Date.now() < until && (await t.host.plugins.pluginHostPid()) === pid) {
        await Promise.resolve(run("bystander", marker)).catch(() => undefined);
      }
      await stealing;
      await allLoaded();
      const stolen = fs.readFileSync(path.join(temp.dir, "plugin-data", "thief", "stolen.bin"));
      expect(stolen.length).toBeGreaterThan(0);
      expect(stolen.toString("latin1")).not.toContain(marker);
      expect(stolen.toString("latin1")).not.toContain("bystander");
      expect(await run("bystander", "again")).toBe("heard 5 chars; forged=undefined");
    });

    if (confinement === "process") {
      it("one that breaks it again after every restart: 3 times in 5 minutes stops every plugin it ran, with a notice, until restarted", async () => {
        expect(await run("keep-tampering")).toBe("armed");
        await waitFor(
          async () => (await plugins()).every((p) => p.runtime?.state === "stopped"),
          20_000,
          "every plugin to be stopped",
        );
        for (const view of await plugins()) {
          expect(view).toMatchObject({
            status: "failed",
            error: expect.stringContaining("Stopped after 3 crashes"),
          });
          expect(view.runtime?.lastError).toMatch(/channel to the app was tampered with/);
        }
        const info = (await t.call("host.info")).result as { notices: { kind: string; message: string }[] };
        expect(info.notices).toContainEqual({
          kind: "plugin_stopped",
          message: expect.stringContaining('The plugin "bystander" was stopped after crashing 3 times'),
        });
        // The user finds the culprit by starting them one at a time: the bystander alone runs fine.
        await t.call("plugins.restart", { id: "bystander" });
        await waitFor(async () => (await plugin("bystander")).status === "loaded", 10_000, "the bystander");
        expect(await run("bystander", "ok")).toBe("heard 2 chars; forged=undefined");
      }, 60_000);
    }
  },
);
