// The Electron binary can't run here, so the preload runs against a recording stand-in for the
// two Electron APIs it touches; what it exposes is the thing under test.
import { describe, expect, it, vi } from "vitest";
import { ipcChannels, methodNames } from "../../../electron/host/rpc/contract.js";

const exposed: Record<string, unknown> = {};
const invocations: unknown[][] = [];

vi.mock("electron", () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
  ipcRenderer: {
    invoke: (...args: unknown[]) => {
      invocations.push(args);
      return Promise.resolve({ jsonrpc: "2.0", id: 1, result: {} });
    },
    on: vi.fn(),
    removeListener: vi.fn(),
  },
}));

describe("preload", () => {
  it("exposes exactly the method table and the event channel, nothing generic", async () => {
    await import("../../../electron/preload.js");
    expect(Object.keys(exposed)).toEqual(["hermes"]);
    const api = exposed.hermes as { methods: Record<string, unknown>; onEvent: unknown };
    expect(Object.keys(api).sort()).toEqual(["methods", "onEvent", "pluginRequest"]);
    expect(Object.keys(api.methods).sort()).toEqual([...methodNames].sort());
    expect(Object.values(api.methods).every((fn) => typeof fn === "function")).toBe(true);
    expect(Object.isFrozen(api.methods)).toBe(true);
    expect(api).not.toHaveProperty("invoke");
    expect(api).not.toHaveProperty("send");
  });

  it("sends each method on the request channel with its own name", async () => {
    await import("../../../electron/preload.js");
    const api = exposed.hermes as { methods: Record<string, (p: unknown) => Promise<unknown>> };
    await api.methods["providers.list"]!({});
    expect(invocations.at(-1)).toEqual([ipcChannels.request, { method: "providers.list", params: {} }]);
  });

  it("pluginRequest sends plugin.<id>.<method> only", async () => {
    await import("../../../electron/preload.js");
    const api = exposed.hermes as { pluginRequest: (m: unknown, p: unknown) => Promise<unknown> };
    await api.pluginRequest("plugin.chart-writer.chart.suggest", { text: "a" });
    expect(invocations.at(-1)).toEqual([
      ipcChannels.request,
      { method: "plugin.chart-writer.chart.suggest", params: { text: "a" } },
    ]);
    const before = invocations.length;
    await expect(api.pluginRequest("settings.set", {})).rejects.toThrow(/plugin\.<id>/);
    await expect(api.pluginRequest(42, {})).rejects.toThrow();
    expect(invocations.length).toBe(before);
  });
});
