/**
 * Every call into a plugin has its deadline (docs/contract.md §5.4: hooks 30 s, commands and tools 120 s, RPC
 * handlers 60 s), and past it the caller gets reason `plugin_timeout`, not only a sentence: the
 * chat's command reply (its `meta.reason`), the tool message the model reads, the `pre_tool_call`
 * gate, and the RPC error's `data.reason`. Time is a manual clock for the whole host: no waits of
 * 120 s. The plugin stays up after each.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TimerHandle } from "../../../electron/host/clock.js";
import { ManualClock } from "../../fixtures/manual-clock.js";
import type { PluginView } from "../../../electron/host/plugins/manager/plugin-manager.js";
import { runToolCall } from "../../../electron/host/sessions/turns/tool-dispatch.js";
import { startTestHost, type TestHost } from "../support/test-host.js";
import { tempHome, waitFor } from "../support/temp-home.js";
import { writePlugin } from "./plugin-rig.js";

/** A manual clock that tells how many timers of a given length are pending (a deadline was set). */
class DeadlineClock extends ManualClock {
  private readonly live = new Map<TimerHandle, number>();
  override setTimeout(fn: () => void, ms: number): TimerHandle {
    const handle = super.setTimeout(() => {
      this.live.delete(handle);
      fn();
    }, ms);
    this.live.set(handle, ms);
    return handle;
  }
  override clearTimeout(handle: TimerHandle): void {
    this.live.delete(handle);
    super.clearTimeout(handle);
  }
  pending(ms: number): number {
    return [...this.live.values()].filter((each) => each === ms).length;
  }
}

let t: TestHost;
let temp: { dir: string; cleanup(): void };
const clock = new DeadlineClock();
const never = "() => new Promise(() => {})";

beforeAll(async () => {
  temp = tempHome("hermes-deadlines-");
  writePlugin(path.join(temp.dir, "plugins"), "hanger", {
    "index.js": `export function register(ctx) {
      ctx.registerCommand({ name: "hang", handler: ${never} });
      ctx.registerCommand({ name: "ping", handler: () => "pong" });
      ctx.registerTool({ name: "hang_tool", parameters: { type: "object" }, handler: ${never} });
      ctx.registerRpc("hang", ${never});
    }`,
  });
  writePlugin(path.join(temp.dir, "plugins"), "gate-hanger", {
    "index.js": `export function register(ctx) { ctx.registerHook("pre_tool_call", ${never}); }`,
  });
  t = await startTestHost({
    home: temp.dir,
    host: {
      bundledPluginsDir: null,
      clock,
      // Heartbeats are not what this is about: they never fall due while the clock jumps.
      pluginTimings: { heartbeat: { intervalMs: 3_600_000, timeoutMs: 3_600_000 } },
    },
  });
  await t.host.plugins.ready();
  await t.call("plugins.setEnabled", { id: "hanger", enabled: true });
}, 30_000);

afterAll(async () => {
  await t?.dispose();
  temp.cleanup();
});

const plugin = async (id: string) =>
  ((await t.call("plugins.list")).result as { plugins: PluginView[] }).plugins.find((p) => p.id === id)!;

/** Moves the clock to one tick before `ms` after the call's deadline was set, checks, then past it. */
async function crossDeadline(ms: number, stillPending: () => Promise<boolean> | boolean): Promise<void> {
  await waitFor(() => clock.pending(ms) > 0, 10_000, `a ${ms} ms deadline to be set`);
  clock.advance(ms - 1);
  await new Promise((r) => setImmediate(r));
  expect(await stillPending()).toBe(true);
  clock.advance(1);
}

describe("a call that never settles ends at its deadline with reason plugin_timeout", () => {
  it("command (120 s): the chat's reply carries meta.reason", async () => {
    const { sessionId } = (await t.call("session.create", {})).result as { sessionId: string };
    const sent = await t.call("session.send", { sessionId, text: "/hang" });
    expect(sent.result).toMatchObject({ command: "hang" });
    type Message = { role: string; status?: string; meta?: Record<string, unknown> };
    const reply = async () =>
      ((await t.call("session.messages", { sessionId })).result as { messages: Message[] }).messages.find(
        (m) => m.role === "assistant",
      );
    await crossDeadline(120_000, async () => (await reply()) === undefined);
    const answered = await waitFor(reply, 10_000, "the command's reply");
    expect(answered).toMatchObject({
      status: "error",
      meta: { command: "hang", pluginId: "hanger", reason: "plugin_timeout" },
    });
    expect(String(answered!.meta?.error)).toContain("did not answer within 120 s");
    expect((await plugin("hanger")).status).toBe("loaded");
    const ping = t.host.pluginRegistries.commands.get("ping")!;
    expect(await ping.handler("", { sessionId, gatewaySessionKey: "g" })).toBe("pong");
  });

  it("tool (120 s): the handler rejects with the reason, and the model's tool message names it", async () => {
    const registries = t.host.pluginRegistries;
    let settled = false;
    const run = runToolCall(
      { tools: registries.tools, hooks: registries.hooks },
      { id: "c1", type: "function", function: { name: "hang_tool", arguments: "{}" } },
      { sessionId: "s", gatewaySessionKey: "g", signal: new AbortController().signal },
    ).finally(() => (settled = true));
    await crossDeadline(120_000, () => !settled);
    const outcome = await run;
    expect(outcome.status).toBe("error");
    expect(outcome.content).toMatch(/^Error \(plugin_timeout\): tool hang_tool \(plugin 'hanger'\)/);
    await expect(
      Promise.all([
        registries.tools.get("hang_tool")!.handler({}, { sessionId: "s" }),
        crossDeadline(120_000, () => true),
      ]),
    ).rejects.toMatchObject({ name: "PluginHandlerError", reason: "plugin_timeout" });
  });

  it("RPC handler (60 s): the error's data.reason", async () => {
    let settled = false;
    const call = t.call("plugin.hanger.hang", {}).finally(() => (settled = true));
    await crossDeadline(60_000, () => !settled);
    const answer = await call;
    expect(answer.error?.data.reason).toBe("plugin_timeout");
    expect((await plugin("hanger")).status).toBe("loaded");
  });

  it("pre_tool_call hook (30 s): the gate blocks, naming plugin_timeout", async () => {
    await t.call("plugins.setEnabled", { id: "gate-hanger", enabled: true });
    let settled = false;
    const gate = t.host.pluginRegistries.hooks
      .gateTool({ sessionId: "s", gatewaySessionKey: "g", toolName: "t", args: {} })
      .finally(() => (settled = true));
    await crossDeadline(30_000, () => !settled);
    expect(await gate).toMatchObject({
      blocked: true,
      pluginId: "gate-hanger",
      reason: expect.stringContaining("plugin_timeout"),
    });
    await t.call("plugins.setEnabled", { id: "gate-hanger", enabled: false });
  });
});
