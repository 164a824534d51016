/**
 * Plugin slots end to end in the host (docs/contract.md §6.3, §6.4, §6.6 `task`, §5.3 auxiliary hooks):
 * `ctx.registerAuxiliaryTask` through a real plugin in its worker, `ctx.llm` on its slot against
 * the fake provider, the trust rules before any request, and a disabled plugin's slots leaving the
 * registry. The auxiliary hooks are watched from the host's hook registry.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PluginManager } from "../../../electron/host/plugins/manager/plugin-manager.js";
import { waitFor } from "../support/temp-home.js";
import { loadCtxPlugin, startRig, type DrivenCtx, type Rig } from "./plugin-rig.js";

let rig: Rig;
let owner: { ctx: DrivenCtx; manager: PluginManager };
let stranger: { ctx: DrivenCtx; manager: PluginManager };
const hookCalls: { name: string; payload: Record<string, unknown> }[] = [];
const ping = { messages: [{ role: "user" as const, content: "sort this" }] };

beforeAll(async () => {
  rig = await startRig();
  owner = await loadCtxPlugin(rig, "slot-owner");
  stranger = await loadCtxPlugin(rig, "slot-stranger");
  for (const name of ["pre_auxiliary_call", "post_auxiliary_call"] as const) {
    rig.hooks.register(
      "hook-watcher",
      name,
      (payload) => void hookCalls.push({ name, payload: { ...payload } }),
    );
  }
  await owner.ctx.call("registerAuxiliaryTask", "sorter", {
    displayName: "Sorter",
    description: "Sorts things.",
    inheritFrom: "compression",
    defaults: { timeout: 90 },
  });
  await waitFor(() => rig.slots.keys().includes("sorter"), 5000, "the sorter slot");
});
afterAll(async () => rig.dispose());
beforeEach(() => {
  rig.resetLlmCalls("slot-owner");
  hookCalls.length = 0;
  rig.settings.update((doc) => {
    delete doc.auxiliary;
  });
});

const requests = () => rig.provider.requests.length + rig.other.requests.length;

describe("ctx.registerAuxiliaryTask", () => {
  it("puts the slot in the registry after the built-ins, owned by the plugin", () => {
    expect(rig.slots.keys()).toEqual([
      "vision",
      "compression",
      "title_generation",
      "background_review",
      "mcp",
      "sorter",
    ]);
    expect(rig.slots.get("sorter")).toMatchObject({
      pluginId: "slot-owner",
      label: "Sorter",
      inheritFrom: "compression",
    });
  });

  it("refuses a built-in key at once, and another plugin's key in the host, with the contract's words", async () => {
    await expect(stranger.ctx.call("registerAuxiliaryTask", "vision", {})).rejects.toThrow(
      "reserved for a built-in task",
    );
    // Registered after `register`, the host's refusal is thrown in the plugin's call; the slot stays the owner's.
    await expect(stranger.ctx.call("registerAuxiliaryTask", "sorter", {})).rejects.toMatchObject({
      name: "PluginRegistrationError",
      message: `registerAuxiliaryTask: "sorter" is already registered by plugin 'slot-owner'.`,
    });
    expect(rig.slots.get("sorter")).toMatchObject({ pluginId: "slot-owner" });
  });
});

describe("ctx.llm task=", () => {
  it("an own slot runs on the slot's route, with the auxiliary hooks around it", async () => {
    rig.settings.set("auxiliary.sorter", { provider: "other", model: "other/sorter" });
    rig.other.enqueue({ kind: "text", content: "sorted" });
    const result = await owner.ctx.llm.complete({ ...ping, task: "sorter", sessionId: "s-1" } as never);
    expect(result).toMatchObject({ text: "sorted", provider: "other", audit: { task: "sorter" } });
    expect(rig.other.requests.at(-1)?.body).toMatchObject({ model: "other/sorter" });
    expect(hookCalls.map((c) => c.name)).toEqual(["pre_auxiliary_call", "post_auxiliary_call"]);
    expect(hookCalls[0]!.payload).toMatchObject({
      auxTask: "sorter",
      pluginId: "slot-owner",
      sessionId: "s-1",
    });
    expect(hookCalls[1]!.payload).toMatchObject({ auxTask: "sorter", usage: expect.any(Object) });
    expect(rig.billed.at(-1)).toMatchObject({ sessionId: "s-1", category: "plugin_llm:slot-owner" });
  });

  it("an own slot that inherits a pinned built-in takes its route only with allow_task_override", async () => {
    rig.settings.set("auxiliary.compression", { provider: "other", model: "other/sum" });
    rig.provider.enqueue({ kind: "text", content: "on main" });
    await owner.ctx.llm.complete({ ...ping, task: "sorter" });
    expect(rig.provider.requests).toHaveLength(1);
    rig.policy("slot-owner", { allow_task_override: true });
    rig.other.enqueue({ kind: "text", content: "on compression's route" });
    const result = await owner.ctx.llm.complete({ ...ping, task: "sorter" });
    expect(result).toMatchObject({ provider: "other" });
    expect(rig.other.requests.at(-1)?.body).toMatchObject({ model: "other/sum" });
  });

  it("a built-in slot needs allow_task_override; refused before any request", async () => {
    await expect(owner.ctx.llm.complete({ ...ping, task: "compression" })).rejects.toMatchObject({
      name: "PluginLlmTrustError",
      message: expect.stringContaining("plugins.entries.slot-owner.llm.allow_task_override"),
    });
    expect(requests()).toBe(0);
    rig.policy("slot-owner", { allow_task_override: true });
    rig.provider.enqueue({ kind: "text", content: "ok" });
    await expect(owner.ctx.llm.complete({ ...ping, task: "compression" })).resolves.toMatchObject({
      text: "ok",
    });
    expect(hookCalls[0]!.payload).toMatchObject({ auxTask: "compression", pluginId: "slot-owner" });
  });

  it("another plugin's slot and an unknown slot are refused before any request", async () => {
    rig.policy("slot-stranger", { allow_task_override: true });
    for (const task of ["sorter", "no_such_task"]) {
      await expect(stranger.ctx.llm.complete({ ...ping, task })).rejects.toMatchObject({
        name: "PluginLlmTrustError",
      });
    }
    expect(requests()).toBe(0);
    expect(hookCalls).toEqual([]);
    rig.policy("slot-stranger", undefined);
  });
});

describe("a disabled plugin", () => {
  it("takes its slots off the registry; its config block stays; enabling brings them back", async () => {
    rig.settings.set("auxiliary.sorter", { provider: "other", model: "kept", timeout: 9 });
    const temp = await loadCtxPlugin(rig, "slot-temp");
    await temp.ctx.call("registerAuxiliaryTask", "temp_task", { description: "Temporary." });
    await waitFor(() => rig.slots.keys().includes("temp_task"), 5000, "the temp_task slot");
    await temp.manager.setEnabled("slot-temp", false);
    expect(rig.slots.keys()).not.toContain("temp_task");
    await owner.manager.setEnabled("slot-owner", false);
    expect(rig.slots.keys()).not.toContain("sorter");
    expect(rig.settings.get().auxiliary.sorter).toEqual({ provider: "other", model: "kept", timeout: 9 });
    await expect(owner.ctx.call("registerAuxiliaryTask", "sorter", {})).rejects.toThrow(/not loaded/);
  });
});
