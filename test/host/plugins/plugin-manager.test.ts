import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../electron/host/clock.js";
import { waitFor } from "../support/temp-home.js";
import { enable, startRig, writePlugin, type Rig } from "./plugin-rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => rig.dispose());

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
    rig.settings.set("plugins.disabled", []);
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
      error: "register() failed: boom in register",
    });
    expect(byId["bad-reject"]).toMatchObject({ status: "failed", error: "register() failed: async boom" });
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
      "index.js": `export function register(ctx) { globalThis.__hangsCtx = ctx; return new Promise(() => {}); }`,
    });
    enable(rig.settings, "hangs");
    const clock = new ManualClock();
    const manager = rig.manager({ clock });
    const started = manager.start();
    await waitFor(() => (globalThis as { __hangsCtx?: unknown }).__hangsCtx, 5000, "register to start");
    expect(manager.get("hangs").status).toBe("loading");
    clock.advance(9_999);
    await Promise.resolve();
    expect(manager.get("hangs").status).toBe("loading");
    clock.advance(1);
    await started;
    expect(manager.get("hangs")).toMatchObject({ status: "failed" });
    expect(manager.get("hangs").error).toContain("did not finish within 10 s");
    const ctx = (globalThis as { __hangsCtx?: { registerCommand(spec: unknown): void } }).__hangsCtx!;
    expect(() => ctx.registerCommand({ name: "late", handler: () => "" })).toThrow(/disabled/);
    expect(rig.commands.get("late")).toBeUndefined();
    await manager.close();
    fs.rmSync(path.join(rig.userPlugins, "hangs"), { recursive: true });
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

  it("follows a hand edit of plugins.enabled", async () => {
    writePlugin(rig.userPlugins, "hand-edited", { "index.js": full("hand-edited") });
    const manager = rig.manager();
    await manager.start();
    enable(rig.settings, "hand-edited");
    await waitFor(() => manager.get("hand-edited").status === "loaded", 5000, "the plugin to load");
    rig.settings.set("plugins.disabled", ["hand-edited"]);
    await waitFor(() => manager.get("hand-edited").status === "disabled", 5000, "the plugin to unload");
    expect(rig.commands.get("hand-edited-cmd")).toBeUndefined();
    rig.settings.set("plugins.disabled", []);
    await manager.close();
  });

  it("setEnabled of an unknown id throws PluginNotFoundError", async () => {
    const manager = rig.manager();
    await manager.start();
    await expect(manager.setEnabled("nope", true)).rejects.toMatchObject({ name: "PluginNotFoundError" });
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
      message: "/explode (plugin 'thrower') failed: command boom",
    });
    await expect(rig.tools.get("explode_tool")!.handler({}, { sessionId: "s" })).rejects.toMatchObject({
      name: "PluginHandlerError",
      message: "tool explode_tool (plugin 'thrower') failed: tool boom",
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
    await new Promise((r) => setTimeout(r, 10));
    rig.clock.advance(30_000);
    expect(await gate).toMatchObject({ blocked: true, pluginId: "hooky" });
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
