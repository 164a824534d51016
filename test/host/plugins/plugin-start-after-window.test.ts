/**
 * `pluginStart: "after-window"` (the apps' setting): plugins — their plugin host and a worker
 * each — start at the host's one start gate, with MCP servers: once the window says it is
 * interactive (`host.interactive`), or at the gate's fallback when no window does, so their
 * start-up never competes with the window's. Calls about plugins made meanwhile wait for them
 * rather than answering an empty list.
 */
import fs from "node:fs";
import { getPriority } from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { createHost, type Host } from "../../../electron/host/create-host.js";
import { PLUGIN_HOST_PRIORITY } from "../../../electron/host/plugins/runtime/launch/plugin-host-priority.js";
import { createKeytarVault } from "../../../electron/host/secrets/vault.js";
import { tempHome, waitFor } from "../support/temp-home.js";

const open: { host: Host; cleanup(): void }[] = [];
afterEach(async () => {
  for (const { host, cleanup } of open.splice(0)) {
    await host.close();
    cleanup();
  }
});

function hostWithPlugin(interactiveFallbackMs = 60_000): Host {
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
    interactiveFallbackMs,
    // A fixed PATH lookup: the MCP side of the gate has no server to start here.
    mcp: { pathValue: async () => "" },
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

it("starts no plugin before the window is interactive; the window's first data does not start them; plugins.list waits, then shows it loaded", async () => {
  const host = hostWithPlugin();
  const listed = call<{ plugins: { id: string; status: string }[] }>(host, "plugins.list");
  expect(await settledWithin(listed, 300)).toBe(pending);
  // The first screen's calls (its list of chats) leave the gate shut.
  expect((await call<{ sessions: unknown[] }>(host, "session.list")).sessions).toEqual([]);
  expect(await settledWithin(listed, 500)).toBe(pending);
  expect(await host.plugins.pluginHostPid()).toBeUndefined();
  expect(host.mcp.manager.ids()).toEqual([]);
  await call(host, "host.interactive");
  const { plugins } = await listed;
  expect(plugins.find((p) => p.id === "greeter")?.status).toBe("loaded");
  expect(
    (await call<{ commands: { name: string }[] }>(host, "plugins.commands")).commands.map((c) => c.name),
  ).toEqual(["greet"]);
  const pid = await host.plugins.pluginHostPid();
  expect(pid).toEqual(expect.any(Number));
  // Its start-up yields the cores to the window and the chat turn.
  expect(getPriority(pid)).toBe(PLUGIN_HOST_PRIORITY);
});

it("a call that acts on plugins (a script enabling one) opens the gate at once; reading them does not", async () => {
  const host = hostWithPlugin();
  const commands = call<{ commands: { name: string }[] }>(host, "plugins.commands");
  expect(await settledWithin(commands, 300)).toBe(pending);
  const { plugin } = await call<{ plugin: { id: string; status: string } }>(host, "plugins.setEnabled", {
    id: "greeter",
    enabled: true,
  });
  expect(plugin.status).toBe("loaded");
  expect((await commands).commands.map((c) => c.name)).toEqual(["greet"]);
});

it("with no window saying it is interactive, plugins start at the gate's fallback, not before", async () => {
  const fallbackMs = 1_200;
  const host = hostWithPlugin(fallbackMs);
  const t0 = Date.now();
  await waitFor(() => host.plugins.isLoaded("greeter"), fallbackMs + 10_000, "greeter loaded");
  expect(Date.now() - t0).toBeGreaterThanOrEqual(fallbackMs - 50);
});

it("a host closed before its plugins started answers those waiting on them, and starts none", async () => {
  const fallbackMs = 500;
  const host = hostWithPlugin(fallbackMs);
  const ready = host.plugins.ready();
  await host.close();
  open.length = 0;
  expect(await settledWithin(ready, 1000)).toBeUndefined();
  await new Promise((resolve) => setTimeout(resolve, fallbackMs + 200));
  expect(await host.plugins.pluginHostPid()).toBeUndefined();
});
