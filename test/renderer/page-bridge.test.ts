/**
 * The app's half of a plugin page's bridge (docs/contract.md §8): only messages from that frame's own window
 * (an opaque origin) carrying the frame's page token and plugin are read; only the page's own
 * plugin's methods go through, with the session the page is shown with; only that plugin's events
 * for that session come back, between the page's hello and its goodbye.
 */
import { describe, expect, it, vi } from "vitest";
import type { PluginEvent } from "../../electron/host/rpc/plugin-names.js";
import { connectPageFrame, PAGE_BRIDGE_TAG } from "../../renderer/src/plugins/page-bridge.js";

const TOKEN = "t".repeat(43);

function setUp(sessionId: string | null = "s-1") {
  let onMessage: ((event: MessageEvent) => void) | null = null;
  let onPluginEvent: ((event: PluginEvent) => void) | null = null;
  const win = {
    addEventListener: vi.fn((_type: string, fn: (event: MessageEvent) => void) => void (onMessage = fn)),
    removeEventListener: vi.fn(() => void (onMessage = null)),
  };
  const frameWindow = { postMessage: vi.fn() };
  const frame = { contentWindow: frameWindow } as unknown as HTMLIFrameElement;
  const client = {
    callPlugin: vi.fn(async (method: string, params: Record<string, unknown>) => ({ method, params })),
    onPluginEvent: vi.fn((fn: (event: PluginEvent) => void) => {
      onPluginEvent = fn;
      return () => void (onPluginEvent = null);
    }),
  };
  const stop = connectPageFrame(client, win as never, frame, { pluginId: "charts", sessionId, token: TOKEN });
  const send = (data: unknown, from: unknown = frameWindow, origin = "null") =>
    onMessage?.({ data, source: from, origin } as MessageEvent);
  const own = { tag: PAGE_BRIDGE_TAG, plugin: "charts", token: TOKEN };
  const request = (id: number, method: unknown, params: unknown = {}) =>
    send({ ...own, kind: "request", id, method, params });
  const hello = (from: Record<string, unknown> = {}) => send({ ...own, kind: "hello", ...from });
  const posted = () => frameWindow.postMessage.mock.calls.map(([message, target]) => ({ message, target }));
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return {
    client,
    frameWindow,
    send,
    request,
    posted,
    settle,
    stop,
    push: (e: PluginEvent) => onPluginEvent?.(e),
    hello,
    own,
    win,
  };
}

describe("connectPageFrame", () => {
  it("forwards the page's own method with the session it is shown with, and answers the frame", async () => {
    const t = setUp();
    t.request(1, "chart.suggest", { text: "a,b", session_id: "someone-else" });
    await t.settle();
    expect(t.client.callPlugin).toHaveBeenCalledWith("plugin.charts.chart.suggest", {
      text: "a,b",
      session_id: "s-1",
    });
    expect(t.posted()).toEqual([
      {
        message: {
          tag: PAGE_BRIDGE_TAG,
          kind: "response",
          id: 1,
          ok: true,
          result: { method: "plugin.charts.chart.suggest", params: { text: "a,b", session_id: "s-1" } },
        },
        target: "*",
      },
    ]);
  });

  it("ignores messages from any other window, a non-opaque origin, or without the bridge's tag", async () => {
    const t = setUp();
    t.send({ tag: PAGE_BRIDGE_TAG, kind: "request", id: 1, method: "x", params: {} }, { postMessage() {} });
    t.send({ tag: PAGE_BRIDGE_TAG, kind: "request", id: 2, method: "x", params: {} }, null, "null");
    t.send(
      { tag: PAGE_BRIDGE_TAG, kind: "request", id: 3, method: "x", params: {} },
      undefined,
      "http://127.0.0.1:1",
    );
    t.send({ kind: "request", id: 4, method: "x", params: {} });
    t.send("plugin.charts.x");
    await t.settle();
    expect(t.client.callPlugin).not.toHaveBeenCalled();
    expect(t.posted()).toEqual([]);
  });

  it("refuses another plugin's method, bad names and params that are not an object", async () => {
    const t = setUp();
    t.request(1, "plugin.other.steal");
    t.request(2, "a..b");
    t.request(3, "chart.suggest", [1, 2]);
    await t.settle();
    expect(t.client.callPlugin).not.toHaveBeenCalled();
    expect(t.posted().map(({ message }) => (message as { error: { reason: string } }).error.reason)).toEqual([
      "plugin_forbidden",
      "method_not_found",
      "invalid_params",
    ]);
  });

  it("passes the host's refusal on with its reason", async () => {
    const t = setUp();
    t.client.callPlugin.mockRejectedValueOnce(Object.assign(new Error("busy"), { reason: "plugin_busy" }));
    t.request(7, "chart.suggest");
    await t.settle();
    expect(t.posted()[0]!.message).toMatchObject({
      id: 7,
      ok: false,
      error: { reason: "plugin_busy", message: "busy" },
    });
  });

  it("refuses a request without the frame's token or from a page of another plugin", async () => {
    const t = setUp();
    t.send({ tag: PAGE_BRIDGE_TAG, kind: "request", id: 1, method: "chart.suggest", params: {} });
    t.send({ ...t.own, token: "u".repeat(43), kind: "request", id: 2, method: "chart.suggest", params: {} });
    // A page of another plugin the frame navigated to, holding no token of its own here.
    t.send({ ...t.own, plugin: "other", kind: "request", id: 3, method: "chart.suggest", params: {} });
    await t.settle();
    expect(t.client.callPlugin).not.toHaveBeenCalled();
    expect(t.posted().map(({ message }) => (message as { error: { reason: string } }).error.reason)).toEqual([
      "plugin_forbidden",
      "plugin_forbidden",
      "plugin_forbidden",
    ]);
  });

  it("relays events only after the page's hello with the frame's token, and not after its goodbye", () => {
    const t = setUp();
    const event = { pluginId: "charts", event: "chart.written", sessionId: "s-1", payload: { job: "j" } };
    t.push(event);
    t.hello({ token: "u".repeat(43) });
    t.push(event);
    t.hello({ plugin: "other" });
    t.push(event);
    expect(t.posted()).toEqual([]);
    t.hello();
    t.push(event);
    expect(t.posted()).toHaveLength(1);
    t.send({ ...t.own, kind: "bye" });
    t.push(event);
    expect(t.posted()).toHaveLength(1);
  });

  it("relays only its own plugin's events for its own session, until stopped", () => {
    const t = setUp();
    t.hello();
    t.push({ pluginId: "charts", event: "chart.written", sessionId: "s-1", payload: { job: "j" } });
    t.push({ pluginId: "other", event: "chart.written", sessionId: "s-1", payload: { job: "x" } });
    t.push({ pluginId: "charts", event: "chart.written", sessionId: "s-2", payload: { job: "y" } });
    expect(t.posted()).toEqual([
      {
        message: { tag: PAGE_BRIDGE_TAG, kind: "event", event: "chart.written", payload: { job: "j" } },
        target: "*",
      },
    ]);
    t.stop();
    expect(t.win.removeEventListener).toHaveBeenCalled();
    t.push({ pluginId: "charts", event: "chart.written", sessionId: "s-1", payload: { job: "z" } });
    expect(t.posted()).toHaveLength(1);
  });
});
