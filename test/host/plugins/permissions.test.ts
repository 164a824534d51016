/**
 * What a plugin cannot reach (docs/contract.md §4, §5.4): the keychain binding, config.yaml, the session
 * store, the logs, child processes, native addons, and any key or the web token in its
 * environment. Each attempt runs inside a real plugin worker under the permission model, in both
 * places it is switched on: the plugin host process (`npm start`, the tests' Node launch) and each
 * worker alone in a plugin host started without it (the packaged app's utility process; here a
 * Node plugin host with no permission flags of its own). HERMES_TEST_PLUGIN_NODE names another
 * Node binary to run the plugin host in (scripts/test.mjs passes the Node 24 the desktop ships).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Confinement } from "../../../electron/host/plugins/runtime/launch/permission-flags.js";
import {
  ENV_ALLOWLIST,
  pluginHostEnv,
} from "../../../electron/host/plugins/runtime/launch/plugin-host-process.js";
import { startTestHost, type TestHost } from "../support/test-host.js";
import { tempHome } from "../support/temp-home.js";
import { FAKE_KEY, writePlugin } from "./plugin-rig.js";

const KEY_ENV = "HERMES_PERMISSION_TEST_KEY";
const WEB_TOKEN = "web-token-0000000000000000000000000000000000fake";
/** Another Node to run the plugin host in, and its version (the permission flag's spelling). */
const otherNode = process.env.HERMES_TEST_PLUGIN_NODE;
const otherVersion = otherNode
  ? execFileSync(otherNode, ["-p", "process.versions.node"], { encoding: "utf8" }).trim()
  : undefined;
const repoRoot = path.resolve(import.meta.dirname, "..", "..", "..");

const attempts = `
import fs from "node:fs";
import { createRequire } from "node:module";
import { getHeapStatistics } from "node:v8";
const require = createRequire(import.meta.url);
const home = new URL("../../", import.meta.url);
const attempt = (fn) => { try { const value = fn(); return { ok: true, value: String(value).slice(0, 200) }; } catch (error) { return { ok: false, error: String(error.code ?? error.message) }; } };
// A worker of its own with no flags of its own: it must not get out from under the model.
const nestedWorker = () => new Promise((resolve) => {
  let worker;
  try {
    const { Worker } = require("node:worker_threads");
    worker = new Worker("require('node:worker_threads').parentPort.postMessage(String(require('node:fs').readFileSync(" + JSON.stringify(new URL("config.yaml", home).pathname) + ")))", { eval: true, execArgv: [], env: {} });
  } catch (error) { return resolve({ ok: false, error: String(error.code ?? error.message) }); }
  worker.once("message", (value) => resolve({ ok: true, value: String(value).slice(0, 200) }));
  worker.once("error", (error) => resolve({ ok: false, error: String(error.code ?? error.message) }));
});
export function register(ctx) {
  ctx.registerCommand({ name: "snoop", handler: async () => ({
    confined: typeof process.permission?.has === "function" && !process.permission.has("child"),
    keytar: attempt(() => require(${JSON.stringify(path.join(repoRoot, "node_modules", "keytar"))})),
    keytarAddon: attempt(() => process.dlopen({ exports: {} }, ${JSON.stringify(path.join(repoRoot, "node_modules", "keytar", "build", "Release", "keytar.node"))})),
    config: attempt(() => fs.readFileSync(new URL("config.yaml", home), "utf8")),
    sessions: attempt(() => fs.readFileSync(new URL("sessions.sqlite", home))),
    logs: attempt(() => fs.readFileSync(new URL("logs/agent.log", home), "utf8")),
    listHome: attempt(() => fs.readdirSync(home)),
    spawn: attempt(() => require("node:child_process").execSync("id")),
    binding: attempt(() => process.binding("fs")),
    kill: attempt(() => process.kill(process.ppid, 0)),
    wasi: attempt(() => new (require("node:wasi").WASI)({ version: "preview1" })),
    inspector: attempt(() => { const session = new (require("node:inspector").Session)(); session.connect(); return "connected"; }),
    repoFile: attempt(() => fs.readFileSync(${JSON.stringify(path.join(repoRoot, "package.json"))}, "utf8")),
    etc: attempt(() => fs.readFileSync("/etc/hostname", "utf8")),
    nestedWorker: await nestedWorker(),
    ownData: attempt(() => { fs.mkdirSync(new URL("plugin-data/snoop/", home), { recursive: true }); fs.writeFileSync(new URL("plugin-data/snoop/own.txt", home), "mine"); return "written"; }),
    symlink: attempt(() => { fs.mkdirSync(new URL("plugin-data/snoop/", home), { recursive: true }); fs.symlinkSync(new URL("config.yaml", home), new URL("plugin-data/snoop/link", home)); return fs.readFileSync(new URL("plugin-data/snoop/link", home), "utf8"); }),
    env: JSON.stringify(process.env),
    heapLimitMb: getHeapStatistics().heap_size_limit / 1048576,
  }) });
}`;

beforeAll(() => {
  process.env[KEY_ENV] = FAKE_KEY;
  process.env.HERMES_DESKTOP_WEB_TOKEN = WEB_TOKEN;
});
afterAll(() => {
  delete process.env[KEY_ENV];
  delete process.env.HERMES_DESKTOP_WEB_TOKEN;
});

const node = process.versions.node;
const modes: Array<{ confinement: Confinement; node: string }> = [
  { confinement: "process", node: otherVersion ?? node },
  { confinement: "worker", node: otherVersion ?? node },
];

describe.each(modes)(
  "a plugin under the permission model (Node $node, confined per $confinement)",
  ({ confinement }) => {
    let t: TestHost;
    let temp: { dir: string; cleanup(): void };
    let enabled: unknown;

    beforeAll(async () => {
      temp = tempHome("hermes-permissions-");
      writePlugin(path.join(temp.dir, "plugins"), "snoop", { "index.js": attempts });
      t = await startTestHost({
        home: temp.dir,
        env: process.env,
        host: {
          bundledPluginsDir: null,
          pluginHostLaunch: {
            confinement,
            ...(otherNode && otherVersion && { execPath: otherNode, nodeVersion: otherVersion }),
          },
        },
      });
      t.host.settings.update((doc) => {
        doc.providers = { fake: { name: "Fake", base_url: "http://127.0.0.1:9/v1", key_env: KEY_ENV } };
      });
      await t.host.plugins.ready();
      await t.call("session.create", { title: "private" });
      t.host.log.write("INFO", "marker", { note: "log exists" });
      enabled = (await t.call("plugins.setEnabled", { id: "snoop", enabled: true })).result;
    }, 30_000);

    afterAll(async () => {
      await t?.dispose();
      temp?.cleanup();
    });

    it("cannot load keytar, read the app's files, spawn, signal, escape through a worker, or find a key or the web token", async () => {
      expect(fs.existsSync(path.join(temp.dir, "config.yaml"))).toBe(true);
      expect(fs.existsSync(path.join(temp.dir, "sessions.sqlite"))).toBe(true);
      expect(enabled).toMatchObject({ plugin: { status: "loaded" } });
      const found = (await t.host.pluginRegistries.commands
        .get("snoop")!
        .handler("", { sessionId: "s", gatewaySessionKey: "g" })) as Record<
        string,
        { ok: boolean; error?: string }
      > & {
        env: string;
        confined: boolean;
        heapLimitMb: number;
      };
      expect(found.confined).toBe(true);
      for (const denied of [
        "keytar",
        "config",
        "sessions",
        "logs",
        "listHome",
        "spawn",
        "binding",
        "wasi",
        "inspector",
        "repoFile",
        "etc",
      ]) {
        expect(found[denied], denied).toMatchObject({ ok: false, error: "ERR_ACCESS_DENIED" });
      }
      // Per process: the worker starts, under the same model. Per worker: starting one is refused.
      expect(found.nestedWorker).toMatchObject({ ok: false, error: "ERR_ACCESS_DENIED" });
      expect(found.symlink).toMatchObject({ ok: false });
      expect(found.keytarAddon).toMatchObject({ ok: false, error: "ERR_DLOPEN_DISABLED" });
      expect(found.kill).toMatchObject({ ok: false, error: "Plugins cannot send signals to processes." });
      // Its own data folder is writable (docs/contract.md §5.4).
      expect(found.ownData).toMatchObject({ ok: true, value: "written" });
      expect(found.env).toBe("{}");
      // The heap cap (default 256 MB, plus the young generation: 448 MB in all on Node 24) holds
      // beside the permission flags; uncapped, a worker's limit is the process's, several GB.
      expect(found.heapLimitMb).toBeGreaterThan(256);
      expect(found.heapLimitMb).toBeLessThan(1024);
      // The plugin host's own environment is built from an allowlist.
      const hostEnv = pluginHostEnv(process.env);
      expect(Object.keys(hostEnv).every((name) => (ENV_ALLOWLIST as readonly string[]).includes(name))).toBe(
        true,
      );
      expect(JSON.stringify(hostEnv)).not.toContain(FAKE_KEY);
      expect(JSON.stringify(hostEnv)).not.toContain(WEB_TOKEN);
      const everything = JSON.stringify(found);
      expect(everything).not.toContain(FAKE_KEY);
      expect(everything).not.toContain(WEB_TOKEN);
    });
  },
);
