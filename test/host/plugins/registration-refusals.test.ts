/**
 * A refused `ctx.register*` reaches the plugin in the call (docs/contract.md §5.2, §5.4, §6.3): the
 * members stay synchronous inside the worker, and the host's refusal (a slot key or command name
 * another plugin holds, a bad tool schema) is a `PluginRegistrationError` thrown where the plugin
 * called, during `register` (so it can catch it and load anyway) and after it. Of two plugins
 * wanting one key, the loser always learns it lost.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { enable, startRig, writePlugin, type Rig } from "./plugin-rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => rig.dispose());
afterEach(async () => rig.reset());

const noContext = { sessionId: "s", gatewaySessionKey: "g" };
const run = async (name: string, raw = "") => {
  const command = rig.commands.get(name);
  if (!command) throw new Error(`no /${name}`);
  return command.handler(raw, noContext);
};

/** A plugin that tries each registration in `register`, catches every refusal and reports them. */
const contender = (id: string) => `
const refusals = [];
const attempt = (what, fn) => {
  try { fn(); return true; } catch (error) { refusals.push({ what, name: error.name, message: error.message }); return false; }
};
export function register(ctx) {
  attempt("slot", () => ctx.registerAuxiliaryTask("shared_slot", { displayName: "${id}" }));
  attempt("command", () => ctx.registerCommand({ name: "shared-cmd", handler: () => "${id}" }));
  ctx.registerCommand({ name: "refusals-${id}", handler: () => refusals });
  ctx.registerCommand({
    name: "try-${id}",
    handler: (raw) => {
      const { member, args } = JSON.parse(raw);
      try {
        // Handlers cannot travel in JSON: the plugin adds one.
        if (member === "registerTool" || member === "registerCommand") ctx[member]({ ...args[0], handler: () => "x" });
        else ctx[member](...args);
        return { ok: true };
      } catch (error) {
        return { ok: false, name: error.name, message: error.message };
      }
    },
  });
}`;

type Refusal = { what: string; name: string; message: string };

describe("a refused registration reaches the plugin in the call", () => {
  it("of two plugins loading side by side, one holds the key and the other caught the refusal", async () => {
    writePlugin(rig.userPlugins, "alpha", { "index.js": contender("alpha") });
    writePlugin(rig.userPlugins, "beta", { "index.js": contender("beta") });
    enable(rig.settings, "alpha", "beta");
    const manager = rig.manager();
    await manager.start();
    expect(manager.get("alpha").status).toBe("loaded");
    expect(manager.get("beta").status).toBe("loaded");
    const slot = rig.slots.get("shared_slot");
    const winner = (slot?.kind === "plugin" ? slot.pluginId : "none") as "alpha" | "beta";
    const loser = winner === "alpha" ? "beta" : "alpha";
    // The command went to one of them too, not necessarily the same one: each is its own race.
    const commandOwner = rig.commands.get("shared-cmd")!.pluginId;
    const refusals = [
      ...((await run("refusals-alpha")) as Refusal[]),
      ...((await run("refusals-beta")) as Refusal[]),
    ];
    expect(refusals).toHaveLength(2);
    expect(refusals).toContainEqual({
      what: "slot",
      name: "PluginRegistrationError",
      message: `registerAuxiliaryTask: "shared_slot" is already registered by plugin '${winner}'.`,
    });
    expect(refusals).toContainEqual({
      what: "command",
      name: "PluginRegistrationError",
      message: `"/shared-cmd" is already registered by plugin '${commandOwner}'; pick another name.`,
    });
    expect(((await run(`refusals-${loser}`)) as Refusal[]).map((r) => r.what)).toContain("slot");
  });

  it("after register: a taken key, a built-in key, a taken command and a bad tool schema throw in the call", async () => {
    writePlugin(rig.userPlugins, "alpha", { "index.js": contender("alpha") });
    writePlugin(rig.userPlugins, "gamma", { "index.js": contender("gamma") });
    enable(rig.settings, "alpha");
    const manager = rig.manager();
    await manager.start();
    expect(await manager.setEnabled("gamma", true)).toMatchObject({ status: "loaded" });
    const attempt = (member: string, ...args: unknown[]) =>
      run("try-gamma", JSON.stringify({ member, args }));
    expect(await attempt("registerAuxiliaryTask", "shared_slot", {})).toEqual({
      ok: false,
      name: "PluginRegistrationError",
      message: `registerAuxiliaryTask: "shared_slot" is already registered by plugin 'alpha'.`,
    });
    expect(await attempt("registerAuxiliaryTask", "compression", {})).toMatchObject({
      ok: false,
      name: "PluginRegistrationError",
      message: expect.stringContaining("reserved for a built-in task"),
    });
    expect(await attempt("registerAuxiliaryTask", "gamma_slot", { displayName: "Gamma" })).toEqual({
      ok: true,
    });
    expect(rig.slots.get("gamma_slot")).toMatchObject({ pluginId: "gamma" });
    expect(await attempt("registerTool", { name: "bad_schema", parameters: { type: 12 } })).toMatchObject({
      ok: false,
      name: "PluginRegistrationError",
      message: expect.stringContaining("not a valid JSON Schema"),
    });
    expect(rig.tools.get("bad_schema")).toBeUndefined();
    expect(await attempt("registerCommand", { name: "shared-cmd" })).toEqual({
      ok: false,
      name: "PluginRegistrationError",
      message: `"/shared-cmd" is already registered by plugin 'alpha'; pick another name.`,
    });
    expect(await run("shared-cmd")).toBe("alpha");
    expect(rig.slots.get("shared_slot")).toMatchObject({ pluginId: "alpha" });
  });

  it("an uncaught refusal in register fails the load with the refusal's words; the holder keeps its key", async () => {
    writePlugin(rig.userPlugins, "alpha", { "index.js": contender("alpha") });
    writePlugin(rig.userPlugins, "grabber", {
      "index.js": `export function register(ctx) {
        ctx.registerAuxiliaryTask("vision", {});
      }`,
    });
    enable(rig.settings, "alpha", "grabber");
    const manager = rig.manager();
    await manager.start();
    expect(manager.get("grabber")).toMatchObject({ status: "failed" });
    expect(manager.get("grabber").error).toContain('"vision" is reserved for a built-in task');
    expect(manager.get("alpha").status).toBe("loaded");
  });
});
