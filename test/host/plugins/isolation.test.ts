/**
 * Bad plugins against the real host (docs/contract.md §5.4): for every entry point (register, command, hook,
 * tool) a busy loop, a promise that never settles, a throw, process.exit(1), a SIGKILL of its own
 * process, allocation past its heap cap, and replaced globals. In each case another connection's
 * host.info keeps answering (sampled throughout; a plugin in the host would stall it for the
 * whole loop, seconds, so the bound is 1 s and holds on a loaded machine), the plugin's state says why, a
 * bystander plugin keeps working with unmodified globals, and the sessions are all there.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PluginView } from "../../../electron/host/plugins/manager/plugin-manager.js";
import { startTestHost, type TestHost } from "../support/test-host.js";
import { tempHome, waitFor } from "../support/temp-home.js";
import { writePlugin } from "./plugin-rig.js";

const timings = {
  registerTimeoutMs: 2_000,
  restartBackoffMs: 100,
  // A busy loop is caught by the heartbeat (1.5 s) before a call's deadline (3 s) would fire.
  heartbeat: { intervalMs: 200, timeoutMs: 1_500 },
  deadlines: { command: 3_000, tool: 3_000, hook: 3_000 },
};

const behaviours = {
  busy: "for (;;) {}",
  never: "return new Promise(() => {});",
  throws: 'throw new Error("bad input");',
  exit: "process.exit(1);",
  sigkill: 'process.kill(process.pid, "SIGKILL");',
  heap: "const hoard = []; for (;;) hoard.push(new Array(100000).fill(Math.random()));",
  globals:
    'JSON.stringify = () => "pwned"; Array.prototype.map = function () { return ["pwned"]; }; globalThis.fetch = async () => { throw new Error("pwned"); }; return "done";',
} as const;
type Behaviour = keyof typeof behaviours;
type Entry = "register" | "command" | "hook" | "tool";

let t: TestHost;
let temp: { dir: string; cleanup(): void };
let sessionId: string;
const latencies: number[] = [];
let sampling = true;
let sampler: Promise<void>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const plugins = async () => ((await t.call("plugins.list")).result as { plugins: PluginView[] }).plugins;
const plugin = async (id: string) => (await plugins()).find((p) => p.id === id)!;

function source(entry: Entry, id: string, behaviour: Behaviour): string {
  const body = behaviours[behaviour];
  switch (entry) {
    case "register":
      return `export async function register(ctx) { ${body} }`;
    case "command":
      return `export function register(ctx) { ctx.registerCommand({ name: "${id}", handler: async () => { ${body} } }); }`;
    case "hook":
      return `export function register(ctx) { ctx.registerHook("pre_tool_call", async () => { ${body} }); }`;
    case "tool":
      return `export function register(ctx) { ctx.registerTool({ name: "${id}", parameters: { type: "object" }, handler: async () => { ${body} } }); }`;
  }
}

/** Runs the entry point once (for register: enabling is the run) and returns what came back. */
async function run(
  entry: Entry,
  id: string,
): Promise<{ ok: boolean; value?: unknown; error?: Error & { reason?: string } }> {
  const { commands, hooks, tools } = t.host.pluginRegistries;
  const settle = (call: Promise<unknown>) =>
    call.then(
      (value) => ({ ok: true, value }),
      (error: Error & { reason?: string }) => ({ ok: false, error }),
    );
  switch (entry) {
    case "register":
      return settle(t.call("plugins.setEnabled", { id, enabled: true }));
    case "command":
      return settle(commands.get(id)!.handler("", { sessionId, gatewaySessionKey: "g" }) as Promise<unknown>);
    case "tool":
      return settle(tools.get(id)!.handler({}, { sessionId }) as Promise<unknown>);
    case "hook":
      return settle(hooks.gateTool({ sessionId, gatewaySessionKey: "g", toolName: "t", args: {} }));
  }
}

beforeAll(async () => {
  temp = tempHome("hermes-isolation-");
  writePlugin(path.join(temp.dir, "plugins"), "bystander", {
    "index.js": `export function register(ctx) {
      ctx.registerCommand({ name: "bystander", handler: () => JSON.stringify([1, 2].map((x) => x * 2)) + " " + typeof fetch + " " + String(fetch).includes("pwned") });
    }`,
  });
  t = await startTestHost({ home: temp.dir, host: { bundledPluginsDir: null, pluginTimings: timings } });
  await t.host.plugins.ready();
  await t.call("plugins.setEnabled", { id: "bystander", enabled: true });
  sessionId = ((await t.call("session.create", { title: "kept" })).result as { sessionId: string }).sessionId;
  sampler = (async () => {
    while (sampling) {
      const started = performance.now();
      await t.call("host.info", {}, "another-connection");
      latencies.push(performance.now() - started);
      await sleep(25);
    }
  })();
}, 30_000);

afterAll(async () => {
  sampling = false;
  await sampler;
  await t.dispose();
  temp.cleanup();
});

async function bystanderWorks(): Promise<void> {
  await waitFor(
    async () => (await plugin("bystander")).status === "loaded",
    10_000,
    "the bystander to run",
  ).catch(async (error: Error) => {
    throw new Error(`${error.message}: ${JSON.stringify(await plugin("bystander"))}`);
  });
  const answer = await t.host.pluginRegistries.commands
    .get("bystander")!
    .handler("", { sessionId, gatewaySessionKey: "g" });
  expect(answer).toBe("[2,4] function false");
  const sessions = (await t.call("session.list")).result as { sessions: { sessionId: string }[] };
  expect(sessions.sessions.map((s) => s.sessionId)).toContain(sessionId);
}

/** What each behaviour leads to, per entry point. */
const crashReason: Partial<Record<Behaviour, RegExp>> = {
  busy: /not responding/,
  exit: /exited with code 1/,
  heap: /ran out of memory \(heap cap 32 MB\)/,
};

const entries: Entry[] = ["register", "command", "hook", "tool"];
const cases = entries.flatMap((entry) =>
  (Object.keys(behaviours) as Behaviour[]).map((behaviour) => ({ entry, behaviour })),
);

describe("a plugin that misbehaves never takes the host or another plugin with it", () => {
  it.each(cases)(
    "$entry: $behaviour",
    async ({ entry, behaviour }) => {
      const id = `bad-${entry}-${behaviour}`;
      try {
        await misbehave(entry, behaviour, id);
      } finally {
        await t.call("plugins.setEnabled", { id, enabled: false });
        fs.rmSync(path.join(temp.dir, "plugins", id), { recursive: true });
      }
    },
    30_000,
  );

  it("host.info never stalled by a plugin (every sample under 1 s, while busy loops ran for seconds)", () => {
    expect(latencies.length).toBeGreaterThan(20);
    expect(Math.max(...latencies)).toBeLessThan(1_000);
  });
});

async function misbehave(entry: Entry, behaviour: Behaviour, id: string): Promise<void> {
  writePlugin(path.join(temp.dir, "plugins"), id, { "index.js": source(entry, id, behaviour) });
  if (behaviour === "heap") t.host.settings.set(`plugins.entries.${id}.limits`, { heap_mb: 32 });
  await t.call("plugins.rescan");
  if (entry !== "register") {
    await t.call("plugins.setEnabled", { id, enabled: true });
    expect((await plugin(id)).status).toBe("loaded");
  }
  const outcome = await run(entry, id);
  const view = await plugin(id);

  if (entry === "register") {
    const expected: Record<Behaviour, RegExp | null> = {
      busy: /did not finish within 2 s/,
      never: /did not finish within 2 s/,
      throws: /register\(\) failed: bad input/,
      exit: /exited with code 1/,
      sigkill: /register\(\) failed: Plugins cannot send signals/,
      heap: /ran out of memory/,
      globals: null,
    };
    const reason = expected[behaviour];
    if (behaviour === "exit" || behaviour === "heap") {
      // Its worker ended in register: a crash, restarted alone (below), its runtime on its row.
      expect(view.runtime?.lastError).toMatch(reason!);
    } else if (reason) expect(view).toMatchObject({ status: "failed", error: expect.stringMatching(reason) });
    else expect(view.status).toBe("loaded");
  } else if (entry === "hook") {
    const gate = outcome.value as { blocked: boolean; reason?: string };
    // A throw is skipped (docs/contract.md §5.3); the refused kill is a throw too.
    const blocks = !["throws", "sigkill", "globals"].includes(behaviour);
    expect(gate.blocked).toBe(blocks);
  } else if (behaviour === "never") {
    expect(outcome.error?.reason).toBe("plugin_timeout");
    expect(view.status).toBe("loaded");
  } else if (behaviour === "throws" || behaviour === "sigkill") {
    expect(outcome.error).toMatchObject({
      name: "PluginHandlerError",
      message: expect.stringMatching(/bad input|cannot send signals/),
    });
    expect(view.status).toBe("loaded");
  } else if (behaviour === "globals") {
    expect(outcome.value).toBe("done");
  } else {
    expect(outcome.error?.reason).toBe("plugin_unresponsive");
  }

  const reason = crashReason[behaviour];
  if (reason && (entry !== "register" || behaviour === "exit" || behaviour === "heap")) {
    // Restarted alone, and the reason stays on its row.
    await waitFor(async () => (await plugin(id)).runtime?.restarts, 10_000, "the restart");
    const after = await plugin(id);
    expect(after.runtime?.lastError).toMatch(reason);
  }
  await bystanderWorks();
}
