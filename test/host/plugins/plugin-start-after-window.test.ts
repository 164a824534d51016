/**
 * `pluginStart: "after-window"` (the apps' setting): plugins — their plugin host and a worker
 * each — start once the window has its first data (its first `session.list` answered), or after
 * PLUGIN_START_MAX_WAIT_MS when no window asks, so their start-up never competes with the window's.
 * Calls about plugins made meanwhile wait for them rather than answering an empty list.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { createHost, PLUGIN_START_MAX_WAIT_MS, type Host } from "../../../electron/host/create-host.js";
import { createKeytarVault } from "../../../electron/host/secrets/vault.js";
import { tempHome, waitFor } from "../support/temp-home.js";

const open: { host: Host; cleanup(): void }[] = [];
afterEach(async () => {
  for (const { host, cleanup } of open.splice(0)) {
    await host.close();
    cleanup();
  }
});

function hostWithPlugin(): Host {
  const temp = tempHome("hermes-plugin-start-");
  const dir = path.join(temp.dir, "plugins", "greeter");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "plugin.yaml"),
    "name: greeter\nversion: 1.0.0\ndescription: test\nmain: index.js\n",
  );
  fs.writeFileSync(
    path.join(dir, "index.js"),
    'export function register(ctx) { ctx.registerCommand({ name: "greet", handler: () => "hi" }); }\n',
  );
  fs.writeFileSync(path.join(temp.dir, "config.yaml"), "plugins:\n  enabled: [greeter]\n");
  const host = createHost({
    home: temp.dir,
    vault: createKeytarVault({ service: `hermes-test-${path.basename(temp.dir)}`, env: {} }),
    mode: "web",
    version: "0.0.0-test",
    pluginStart: "after-window",
  });
  open.push({ host, cleanup: temp.cleanup });
  return host;
}

let seq = 0;
async function call<T>(host: Host, method: string, params: object = {}): Promise<T> {
  const reply = (await host.router.handle(
    { jsonrpc: "2.0", id: ++seq, method, params },
    { connectionId: "w" },
  )) as {
    result?: T;
    error?: { message: string };
  };
  if (reply.error) throw new Error(`${method} failed: ${reply.error.message}`);
  return reply.result as T;
}

const pending = Symbol("pending");
const settledWithin = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<typeof pending>((resolve) => setTimeout(() => resolve(pending), ms))]);

it("starts no plugin before the window's list of chats is answered; plugins.list waits, then shows it loaded", async () => {
  const host = hostWithPlugin();
  const listed = call<{ plugins: { id: string; status: string }[] }>(host, "plugins.list");
  expect(await settledWithin(listed, 300)).toBe(pending);
  expect(await host.plugins.pluginHostPid()).toBeUndefined();
  expect((await call<{ sessions: unknown[] }>(host, "session.list")).sessions).toEqual([]);
  const { plugins } = await listed;
  expect(plugins.find((p) => p.id === "greeter")?.status).toBe("loaded");
  expect(
    (await call<{ commands: { name: string }[] }>(host, "plugins.commands")).commands.map((c) => c.name),
  ).toEqual(["greet"]);
  expect(await host.plugins.pluginHostPid()).toEqual(expect.any(Number));
});

it("with no window asking, plugins start once the longest wait is over", async () => {
  const host = hostWithPlugin();
  const t0 = Date.now();
  await waitFor(() => host.plugins.isLoaded("greeter"), PLUGIN_START_MAX_WAIT_MS + 10_000, "greeter loaded");
  expect(Date.now() - t0).toBeGreaterThanOrEqual(PLUGIN_START_MAX_WAIT_MS - 50);
});

it("a host closed before its plugins started answers those waiting on them, and starts none", async () => {
  const host = hostWithPlugin();
  const ready = host.plugins.ready();
  await host.close();
  open.length = 0;
  expect(await settledWithin(ready, 1000)).toBeUndefined();
  await new Promise((resolve) => setTimeout(resolve, PLUGIN_START_MAX_WAIT_MS + 200));
  expect(await host.plugins.pluginHostPid()).toBeUndefined();
});
