import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Clock, type TimerHandle } from "../../../electron/host/clock.js";
import { ManualClock } from "../../fixtures/manual-clock.js";
import { HookRegistry } from "../../../electron/host/plugins/registries/hook-registry.js";
import type { PluginManager } from "../../../electron/host/plugins/manager/plugin-manager.js";
import { waitFor } from "../support/temp-home.js";
import { enable, loadCtxPlugin, startRig, writePlugin, type Rig } from "./plugin-rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => rig.dispose());
// Each test starts only the workers of its own plugins: what an earlier test enabled is gone.
afterEach(async () => rig.reset());

/**
 * Waits for `probe` while a plugin loads in its worker. A failed load ends the wait at once with the
 * plugin's own reason (say the plugin host could not start), not with a timeout naming the probe.
 * No deadline of its own below the test's: a worker's boot on a loaded machine is bounded by the
 * manager's own deadlines, and they say what went wrong.
 */
/** A plugin's status, or undefined before the manager's first scan found it. */
const statusOf = (manager: PluginManager, id: string) =>
  manager.list().find((each) => each.id === id)?.status;

function whileLoading<T>(manager: PluginManager, id: string, probe: () => T, what: string): Promise<T> {
  return waitFor(
    () => {
      if (statusOf(manager, id) === "failed") {
        throw new Error(`Plugin ${id} failed before ${what}: ${manager.get(id).error}`);
      }
      return probe();
    },
    15_000,
    what,
  );
}

/** A manual clock that also tells which timers are pending, so a test can wait for a deadline to be set. */
function watchedClock(): Clock & { advance(ms: number): void; pending(ms: number): number } {
  const clock = new ManualClock();
  const live = new Map<TimerHandle, number>();
  return {
    now: () => clock.now(),
    setTimeout: (fn, ms) => {
      const handle: TimerHandle = clock.setTimeout(() => {
        live.delete(handle);
        fn();
      }, ms);
      live.set(handle, ms);
      return handle;
    },
    clearTimeout: (handle) => {
      live.delete(handle);
      clock.clearTimeout(handle);
    },
    advance: (ms) => clock.advance(ms),
    pending: (ms) => [...live.values()].filter((each) => each === ms).length,
  };
}

const full = (id: string, extra = "") => `
export function register(ctx) {
  ctx.registerCommand({ name: "${id}-cmd", description: "d", argsHint: "<x>", handler: (raw, c) => "v1:" + raw + ":" + c.sessionId });
  ctx.registerHook("post_tool_call", () => ({ explanation: "from ${id}" }));
  ctx.registerTool({ name: "${id}_tool", description: "t", parameters: { type: "object" }, handler: (args) => ({ ok: args }) });
  ${extra}
}`;

describe("loading and load isolation", () => {
  it("loads only enabled plugins; plugins.disabled wins over enabled", async () => {
    writePlugin(rig.userPlugins, "iso-a", { "index.js": full("iso-a") });
    writePlugin(rig.userPlugins, "iso-b", { "index.js": full("iso-b") });
    writePlugin(rig.userPlugins, "iso-c", { "index.js": full("iso-c") });
    enable(rig.settings, "iso-a", "iso-c");
    rig.settings.set("plugins.disabled", ["iso-c"]);
    const manager = rig.manager();
    await manager.start();
    const status = Object.fromEntries(manager.list().map((p) => [p.id, p.status]));
    expect(status).toMatchObject({ "iso-a": "loaded", "iso-b": "disabled", "iso-c": "disabled" });
    expect(rig.commands.get("iso-a-cmd")?.pluginId).toBe("iso-a");
    expect(rig.commands.get("iso-b-cmd")).toBeUndefined();
    await manager.close();
  });

  it("a plugin that throws, rejects, has a bad manifest or no register fails with its reason; the others load", async () => {
    writePlugin(rig.userPlugins, "bad-throw", {
      "index.js": 'export function register() { throw new Error("boom in register"); }',
    });
    writePlugin(rig.userPlugins, "bad-reject", {
      "index.js": 'export default async function () { throw new Error("async boom"); }',
    });
    writePlugin(rig.userPlugins, "bad-none", { "index.js": "export const x = 1;" });
    writePlugin(rig.userPlugins, "bad-syntax", { "index.js": "export function register( {" });
    writePlugin(rig.userPlugins, "bad-yaml", {}, "name: [oops\n");
    writePlugin(rig.userPlugins, "bad-hook", {
      "index.js": 'export function register(ctx) { ctx.registerHook("on_whatever", () => 1); }',
    });
    writePlugin(rig.userPlugins, "good-one", { "index.js": full("good-one") });
    enable(
      rig.settings,
      "bad-throw",
      "bad-reject",
      "bad-none",
      "bad-syntax",
      "bad-yaml",
      "bad-hook",
      "good-one",
    );
    const manager = rig.manager();
    await manager.start();
    const byId = Object.fromEntries(manager.list().map((p) => [p.id, p]));
    expect(byId["bad-throw"]).toMatchObject({
      status: "failed",
      error:
        "register() failed: boom in register. Fix the plugin's register(), or disable the plugin in Settings → Plugins.",
    });
    expect(byId["bad-reject"]).toMatchObject({
      status: "failed",
      error:
        "register() failed: async boom. Fix the plugin's register(), or disable the plugin in Settings → Plugins.",
    });
    expect(byId["bad-none"]!.error).toContain("exports no register function");
    expect(byId["bad-syntax"]!.error).toContain("Loading index.js failed");
    expect(byId["bad-yaml"]!.error).toContain("not valid YAML");
    expect(byId["bad-hook"]!.error).toContain('Unknown hook "on_whatever"');
    expect(byId["good-one"]!.status).toBe("loaded");
    expect(rig.logLines().some((l) => l.includes("ERROR plugin_failed plugin=bad-throw"))).toBe(true);
    await manager.close();
  });

  it("a main module that escapes its folder through a symlink is refused", async () => {
    const outside = path.join(rig.home, "outside.js");
    fs.writeFileSync(outside, "export function register() {}");
    const dir = writePlugin(rig.userPlugins, "escaper", {}, "name: escaper\nversion: 1.0.0\nmain: link.js\n");
    fs.symlinkSync(outside, path.join(dir, "link.js"));
    enable(rig.settings, "escaper");
    const manager = rig.manager();
    await manager.start();
    expect(manager.get("escaper")).toMatchObject({ status: "failed" });
    expect(manager.get("escaper").error).toContain("outside the plugin folder");
    await manager.close();
  });

  it("a register that never returns fails after 10 s (injected clock), and its late registrations are refused", async () => {
    writePlugin(rig.userPlugins, "hangs", {
      "index.js": `export function register(ctx) {
        ctx.state.set("started", true);
        setInterval(() => ctx.registerCommand({ name: "late", handler: () => "" }), 20);
        return new Promise(() => {});
      }`,
    });
    enable(rig.settings, "hangs");
    const clock = new ManualClock();
    const manager = rig.manager({ clock });
    const started = manager.start();
    const stateFile = path.join(rig.home, "plugin-data", "hangs", "state.json");
    await whileLoading(manager, "hangs", () => fs.existsSync(stateFile), "register to start");
    // Registrations reach the host while register runs: the refusal below is not for want of sending.
    await whileLoading(manager, "hangs", () => rig.commands.get("late"), "its first late registration");
    expect(manager.get("hangs").status).toBe("loading");
    clock.advance(9_999);
    await Promise.resolve();
    expect(manager.get("hangs").status).toBe("loading");
    clock.advance(1);
    await started;
    expect(manager.get("hangs")).toMatchObject({ status: "failed" });
    expect(manager.get("hangs").error).toContain("did not finish within 10 s");
    // Its worker is stopped: what it registered is gone at once, and nothing more arrives. The
    // second look is after a window of five of its 20 ms ticks: a refusal has no event to wait on.
    expect(rig.commands.get("late")).toBeUndefined();
    await new Promise((r) => setTimeout(r, 100));
    expect(rig.commands.get("late")).toBeUndefined();
    await manager.close();
  });

  it("a module whose top-level await never settles fails after 10 s too (injected clock)", async () => {
    writePlugin(rig.userPlugins, "hangs-import", {
      "index.js": `await new Promise(() => {}); export function register() {}`,
    });
    writePlugin(rig.userPlugins, "beside-hang", { "index.js": full("beside-hang") });
    enable(rig.settings, "hangs-import", "beside-hang");
    const clock = watchedClock();
    // Heartbeats would miss too when time jumps by 10 s; this test is about register alone.
    const manager = rig.manager({ clock, heartbeat: { intervalMs: 3_600_000, timeoutMs: 3_600_000 } });
    const started = manager.start();
    await whileLoading(
      manager,
      "beside-hang",
      () => statusOf(manager, "beside-hang") === "loaded",
      "it loads",
    );
    // The deadline starts once the worker booted and was asked to register (the other plugin's
    // register deadline was cleared when it answered); time moves only then, so the worker's
    // 60 s boot deadline can never be what fails it, however slowly the worker boots.
    await whileLoading(
      manager,
      "hangs-import",
      () => clock.pending(10_000) === 1,
      "its register deadline is set",
    );
    clock.advance(9_999);
    await Promise.resolve();
    expect(manager.get("hangs-import").status).toBe("loading");
    clock.advance(1);
    await started;
    expect(manager.get("hangs-import").error).toContain("did not finish within 10 s");
    expect(manager.get("beside-hang").status).toBe("loaded");
    await manager.close();
  });

  it("a main module named in plugin.yaml but missing on disk fails with the reason", async () => {
    writePlugin(rig.userPlugins, "no-main", {}, "name: no-main\nversion: 1.0.0\nmain: lib/index.js\n");
    enable(rig.settings, "no-main");
    const manager = rig.manager();
    await manager.start();
    expect(manager.get("no-main")).toMatchObject({ status: "failed" });
    expect(manager.get("no-main").error).toContain('The main module "lib/index.js" does not exist');
    await manager.close();
  });

  it("a slash command that collides with another plugin's fails the second plugin with the reason", async () => {
    const cmd = (id: string) =>
      `export function register(ctx) { ctx.registerCommand({ name: "shared-cmd", handler: () => "${id}" }); }`;
    writePlugin(rig.userPlugins, "coll-a", { "index.js": cmd("coll-a") });
    enable(rig.settings, "coll-a");
    const manager = rig.manager();
    await manager.start();
    writePlugin(rig.userPlugins, "coll-b", { "index.js": cmd("coll-b") });
    await manager.rescan();
    await manager.setEnabled("coll-b", true);
    expect(manager.get("coll-b").status).toBe("failed");
    expect(manager.get("coll-b").error).toContain(`"/shared-cmd" is already registered by plugin 'coll-a'`);
    expect(rig.commands.get("shared-cmd")?.pluginId).toBe("coll-a");
    await manager.close();
  });
});

describe("enable and disable at once", () => {
  it("disabling removes commands, hooks and tools at once; enabling picks up an edited main", async () => {
    const dir = writePlugin(rig.userPlugins, "toggler", { "index.js": full("toggler") });
    const manager = rig.manager();
    await manager.start();
    expect(manager.get("toggler").status).toBe("disabled");

    const on = await manager.setEnabled("toggler", true);
    expect(on).toMatchObject({ status: "loaded", enabled: true });
    expect(rig.settings.get().plugins.enabled).toContain("toggler");
    expect(rig.commands.get("toggler-cmd")).toBeDefined();
    expect(rig.tools.get("toggler_tool")).toBeDefined();
    expect(manager.commands()).toContainEqual({
      name: "toggler-cmd",
      description: "d",
      argsHint: "<x>",
      pluginId: "toggler",
    });
    const hooksBefore = rig.hooks.count("post_tool_call");

    const off = await manager.setEnabled("toggler", false);
    expect(off).toMatchObject({ status: "disabled", enabled: false });
    expect(rig.commands.get("toggler-cmd")).toBeUndefined();
    expect(rig.tools.get("toggler_tool")).toBeUndefined();
    expect(rig.hooks.count("post_tool_call")).toBe(hooksBefore - 1);

    fs.writeFileSync(path.join(dir, "index.js"), full("toggler").replace('"v1:"', '"v2:"'));
    await manager.setEnabled("toggler", true);
    const answer = await rig.commands
      .get("toggler-cmd")!
      .handler("x", { sessionId: "s", gatewaySessionKey: "g" });
    expect(answer).toBe("v2:x:s");
    await manager.close();
  });

  it("accepts ctx.register* after register returned; disabling removes those too and stops the worker", async () => {
    const { ctx, manager } = await loadCtxPlugin(rig, "late-reg");
    expect(manager.get("late-reg").status).toBe("loaded");
    await ctx.call("registerLate");
    await waitFor(() => rig.tools.get("late_tool"), 5000, "the late registrations");
    expect(await rig.commands.get("late-cmd")!.handler("y", { sessionId: "s", gatewaySessionKey: "g" })).toBe(
      "late:y",
    );
    expect(manager.commands()).toContainEqual({
      name: "late-cmd",
      description: "",
      argsHint: "<x>",
      pluginId: "late-reg",
    });
    expect(rig.tools.get("late_tool")?.pluginId).toBe("late-reg");
    expect(rig.hooks.count("on_session_start")).toBe(1);

    await manager.setEnabled("late-reg", false);
    expect(rig.commands.get("late-cmd")).toBeUndefined();
    expect(rig.tools.get("late_tool")).toBeUndefined();
    expect(rig.hooks.count("on_session_start")).toBe(0);
    await expect(ctx.call("pluginId")).rejects.toThrow(/not loaded/);
    await manager.close();
  });

  it("disabling while register still runs is at once, ends as disabled (not failed), and a quick re-enable loads afresh", async () => {
    // register waits for its own "slow-release" command, so the test decides when it returns.
    writePlugin(rig.userPlugins, "slowpoke", {
      "index.js": `export function register(ctx) {
        return new Promise((resolve) => {
          ctx.registerCommand({ name: "slow-cmd", handler: () => "slow" });
          ctx.registerCommand({ name: "slow-release", handler: () => { resolve(); return "released"; } });
        });
      }`,
    });
    const manager = rig.manager({ clock: new ManualClock() });
    await manager.start();
    const release = () =>
      rig.commands.get("slow-release")!.handler("", { sessionId: "s", gatewaySessionKey: "g" });
    const firstOn = manager.setEnabled("slowpoke", true);
    await whileLoading(manager, "slowpoke", () => rig.commands.get("slow-release"), "register starts");
    expect(manager.get("slowpoke").status).toBe("loading");
    expect(rig.commands.get("slow-cmd")).toBeDefined();

    expect(await manager.setEnabled("slowpoke", false)).toMatchObject({ status: "disabled", enabled: false });
    expect(rig.commands.get("slow-cmd")).toBeUndefined();
    expect(await firstOn).toMatchObject({ status: "disabled" });
    expect(manager.get("slowpoke").error).toBeUndefined();

    // Again, but enabled again before the first register returns.
    const on = manager.setEnabled("slowpoke", true);
    await whileLoading(manager, "slowpoke", () => rig.commands.get("slow-release"), "register A starts");
    await manager.setEnabled("slowpoke", false);
    const onAgain = manager.setEnabled("slowpoke", true);
    await whileLoading(manager, "slowpoke", () => rig.commands.get("slow-release"), "register B starts");
    expect(await release()).toBe("released");
    await Promise.all([on, onAgain]);
    expect(manager.get("slowpoke")).toMatchObject({ status: "loaded", enabled: true });
    expect(await rig.commands.get("slow-cmd")!.handler("", { sessionId: "s", gatewaySessionKey: "g" })).toBe(
      "slow",
    );
    await manager.setEnabled("slowpoke", false);
    await manager.close();
  });

  it("closing the manager while a register still runs is at once: the worker stops, nothing stays registered", async () => {
    writePlugin(rig.userPlugins, "never-done", {
      "index.js": `export function register(ctx) {
        ctx.registerCommand({ name: "never-cmd", handler: () => "" });
        return new Promise(() => {});
      }`,
    });
    enable(rig.settings, "never-done");
    // Time stands still: register's own deadline never comes to end the load.
    const manager = rig.manager({ clock: new ManualClock() });
    const started = manager.start();
    await whileLoading(manager, "never-done", () => rig.commands.get("never-cmd"), "register starts");
    const closing = manager.close().then(() => "closed");
    const waited = new Promise((resolve) => setTimeout(() => resolve("still waiting for register"), 5000));
    expect(await Promise.race([closing, waited])).toBe("closed");
    await started;
    expect(manager.get("never-done").status).toBe("disabled");
    expect(manager.get("never-done").error).toBeUndefined();
    expect(rig.commands.get("never-cmd")).toBeUndefined();
  });

  it("follows a hand edit of plugins.enabled", async () => {
    writePlugin(rig.userPlugins, "hand-edited", { "index.js": full("hand-edited") });
    const manager = rig.manager();
    await manager.start();
    enable(rig.settings, "hand-edited");
    await whileLoading(
      manager,
      "hand-edited",
      () => manager.get("hand-edited").status === "loaded",
      "it loads",
    );
    rig.settings.set("plugins.disabled", ["hand-edited"]);
    await waitFor(() => manager.get("hand-edited").status === "disabled", 5000, "the plugin to unload");
    expect(rig.commands.get("hand-edited-cmd")).toBeUndefined();
    await manager.close();
  });

  it("setEnabled of an unknown id throws PluginNotFoundError", async () => {
    const manager = rig.manager();
    await manager.start();
    await expect(manager.setEnabled("nope", true)).rejects.toMatchObject({ name: "PluginNotFoundError" });
    await manager.close();
  });
});

describe("values across the plugin host", () => {
  it("a handler's arguments and answer cross as structured clones, JSON-safe or not (wire-codec.ts)", async () => {
    writePlugin(rig.userPlugins, "cloner", {
      "index.js": `export function register(ctx) {
        ctx.registerTool({ name: "clone_tool", description: "t", parameters: { type: "object" }, handler: (args) => ({
          plain: { text: "pong", list: [1, "two", null] },
          exotic: { when: new Date(0), big: 10n, map: new Map([["k", [1, 2]]]), nan: NaN, missing: undefined, hole: [1, , 3] },
          echoed: args,
        }) });
      }`,
    });
    enable(rig.settings, "cloner");
    const manager = rig.manager();
    await manager.start();
    const args = { at: new Date(5), tags: new Set(["a"]), text: "hi" };
    const tool = rig.tools.get("clone_tool")!;
    const value = (await tool.handler(args, { sessionId: "s" })) as { exotic: object };
    expect(value).toStrictEqual({
      plain: { text: "pong", list: [1, "two", null] },
      exotic: {
        when: new Date(0),
        big: 10n,
        map: new Map([["k", [1, 2]]]),
        nan: NaN,
        missing: undefined,
        // eslint-disable-next-line no-sparse-arrays
        hole: [1, , 3],
      },
      echoed: args,
    });
    expect(Object.keys(value.exotic)).toContain("missing");
    await manager.close();
  });
});

describe("handlers that fail", () => {
  it("a throwing command or tool is logged and raised as PluginHandlerError; the plugin stays loaded", async () => {
    writePlugin(rig.userPlugins, "thrower", {
      "index.js": `export function register(ctx) {
        ctx.registerCommand({ name: "explode", handler: () => { throw new Error("command boom"); } });
        ctx.registerTool({ name: "explode_tool", description: "t", parameters: { type: "object" }, handler: async () => { throw new Error("tool boom"); } });
      }`,
    });
    enable(rig.settings, "thrower");
    const manager = rig.manager();
    await manager.start();
    const command = rig.commands.get("explode")!;
    await expect(command.handler("", { sessionId: "s", gatewaySessionKey: "g" })).rejects.toMatchObject({
      name: "PluginHandlerError",
      message:
        "/explode (plugin 'thrower') failed: command boom. This is an error in the plugin 'thrower', not in Hermes Desktop: try again, or restart or disable the plugin in Settings → Plugins.",
    });
    await expect(rig.tools.get("explode_tool")!.handler({}, { sessionId: "s" })).rejects.toMatchObject({
      name: "PluginHandlerError",
      message:
        "tool explode_tool (plugin 'thrower') failed: tool boom. This is an error in the plugin 'thrower', not in Hermes Desktop: try again, or restart or disable the plugin in Settings → Plugins.",
    });
    const log = rig.logLines().join("\n");
    expect(log).toContain("ERROR plugin_command_error plugin=thrower");
    expect(log).toContain("ERROR plugin_tool_error plugin=thrower");
    expect(manager.get("thrower").status).toBe("loaded");
    await manager.close();
  });

  it("a throwing hook is skipped; a pre_tool_call hook that never returns blocks the tool after 30 s", async () => {
    writePlugin(rig.userPlugins, "hooky", {
      "index.js": `export function register(ctx) {
        ctx.registerHook("post_tool_call", () => { throw new Error("hook boom"); });
        ctx.registerHook("pre_tool_call", () => new Promise(() => {}));
      }`,
    });
    enable(rig.settings, "hooky");
    const manager = rig.manager();
    await manager.start();
    const outcomes = await rig.hooks.fire("post_tool_call", {
      sessionId: "s",
      gatewaySessionKey: "g",
      toolName: "t",
      args: {},
      result: "ok",
    });
    expect(outcomes.find((o) => o.pluginId === "hooky")).toMatchObject({
      status: "error",
      error: "hook boom",
    });
    const gate = rig.hooks.gateTool({ sessionId: "s", gatewaySessionKey: "g", toolName: "t", args: {} });
    rig.clock.advance(30_000);
    expect(await gate).toMatchObject({ blocked: true, pluginId: "hooky" });
    await manager.close();
  });
});

describe("hook timeouts (docs/contract.md §5.3, injected clock)", () => {
  it("a hook that never returns is skipped after 30 s and logged; the hooks after it still run", async () => {
    const clock = new ManualClock();
    const hooks = new HookRegistry(rig.log, clock);
    const seen: string[] = [];
    hooks.register("stuck", "post_tool_call", () => new Promise(() => {}));
    hooks.register("after", "post_tool_call", () => {
      seen.push("after");
      return { explanation: "ran" };
    });
    const fired = hooks.fire("post_tool_call", {
      sessionId: "s",
      gatewaySessionKey: "g",
      toolName: "t",
      args: {},
      result: { error: "x" },
    });
    clock.advance(29_999);
    await Promise.resolve();
    expect(seen).toEqual([]);
    clock.advance(1);
    expect(await fired).toEqual([
      { pluginId: "stuck", status: "timeout", error: "timed out after 30000 ms", reason: "plugin_timeout" },
      { pluginId: "after", status: "ok", value: { explanation: "ran" } },
    ]);
    expect(
      rig
        .logLines()
        .some((l) => / WARN hook_timeout plugin=stuck hook=post_tool_call timeout_ms=30000$/.test(l)),
    ).toBe(true);
  });

  it("a pre_tool_call hook that times out blocks the tool; one that throws does not", async () => {
    const clock = new ManualClock();
    const hooks = new HookRegistry(rig.log, clock);
    const payload = { sessionId: "s", gatewaySessionKey: "g", toolName: "t", args: {} };
    const unregister = hooks.register("thrower", "pre_tool_call", () => {
      throw new Error("hook boom");
    });
    expect(await hooks.gateTool(payload)).toEqual({ blocked: false });
    unregister();
    hooks.register("stuck", "pre_tool_call", () => new Promise(() => {}));
    const gate = hooks.gateTool(payload);
    clock.advance(30_000);
    expect(await gate).toMatchObject({ blocked: true, pluginId: "stuck" });
  });
});

describe("capabilities (docs/contract.md §7.1)", () => {
  it("hasCapability reads the grant at each use: consent ids need declaring and granting, override ids follow their allow_* flag", async () => {
    const { ctx, manager } = await loadCtxPlugin(
      rig,
      "capable",
      "name: capable\nversion: 1.0.0\nmain: index.js\ncapabilities: [llm.side_question, fs.write]\n",
    );
    const view = manager.get("capable");
    expect(view.warnings).toContain('plugin.yaml: unknown capability "fs.write" is dropped');
    expect(view.capabilities).toEqual([{ id: "llm.side_question", granted: false }]);
    expect(view.pendingCapabilities).toEqual(["llm.side_question"]);
    expect(await ctx.hasCapability("llm.side_question")).toBe(false);

    rig.settings.update((doc) => {
      doc.plugins!.entries = {
        capable: {
          granted_capabilities: ["llm.side_question", "llm.session_fork"],
          llm: { allow_model_override: true },
        },
      };
    });
    await waitFor(() => ctx.hasCapability("llm.side_question"), 5000, "the grant to reach the worker");
    // Granted but not declared in plugin.yaml: not granted.
    expect(await ctx.hasCapability("llm.session_fork")).toBe(false);
    expect(await ctx.hasCapability("llm.model_override")).toBe(true);
    expect(await ctx.hasCapability("llm.provider_override")).toBe(false);
    expect(await ctx.hasCapability("fs.write")).toBe(false);
    expect(manager.get("capable").capabilities).toEqual([{ id: "llm.side_question", granted: true }]);

    rig.settings.update((doc) => {
      delete doc.plugins!.entries!.capable;
    });
    await waitFor(async () => !(await ctx.hasCapability("llm.side_question")), 5000, "the revoke");
    expect(await ctx.hasCapability("llm.model_override")).toBe(false);
    await manager.close();
  });
});

describe("ctx.state", () => {
  it("persists across a manager restart, atomically under plugin-data/<id>/state.json", async () => {
    writePlugin(rig.userPlugins, "counter", {
      "index.js": `export function register(ctx) {
        const runs = (ctx.state.get("runs") ?? 0) + 1;
        ctx.state.set("runs", runs);
        ctx.state.set("nested", { list: [1, "two", null], runs });
        ctx.registerCommand({ name: "runs", handler: () => String(ctx.state.get("runs")) });
      }`,
    });
    enable(rig.settings, "counter");
    const first = rig.manager();
    await first.start();
    await first.close();
    const second = rig.manager();
    await second.start();
    expect(await rig.commands.get("runs")!.handler("", { sessionId: "s", gatewaySessionKey: "g" })).toBe("2");
    const file = path.join(rig.home, "plugin-data", "counter", "state.json");
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual({
      runs: 2,
      nested: { list: [1, "two", null], runs: 2 },
    });
    expect(fs.readdirSync(path.dirname(file))).toEqual(["state.json"]);
    await second.close();
  });
});
