/**
 * Plugin RPC (docs/contract.md §8, §5.4) through a real host: `plugin.<id>.<method>` dispatched into the
 * plugin's worker, every reason (plugin_rpc_failed, plugin_not_found, method_not_found,
 * plugin_timeout, plugin_busy, invalid_params), name and payload validation, the per-plugin
 * concurrency bound, session events, and a hung handler not holding up the same connection's stop.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import {
  MAX_RPC_IN_FLIGHT,
  MAX_RPC_QUEUED,
} from "../../../electron/host/plugins/pages/plugin-rpc-dispatch.js";
import { emitProblem } from "../../../electron/host/plugins/pages/plugin-event-checks.js";
import type { EventFrame } from "../../../electron/host/rpc/frames.js";
import { RPC_SUBPROTOCOL, tokenSubprotocol } from "../../../electron/host/rpc/web-token.js";
import { startWebServer, type WebServer } from "../../../electron/web/server.js";
import { startTestHost, type TestHost } from "../support/test-host.js";
import { tempHome } from "../support/temp-home.js";
import { writePlugin } from "./plugin-rig.js";

const token = "test-token-abcdefghijklmnop-plugin-rpc";
let t: TestHost;
let temp: { dir: string; cleanup(): void };
let server: WebServer;
const frames: EventFrame[] = [];

const rpcPlugin = `
let running = 0;
let maxRunning = 0;
export function register(ctx) {
  ctx.registerRpc("echo", (params, context) => ({ params, sessionId: context.sessionId }));
  ctx.registerRpc("nothing", () => undefined);
  ctx.registerRpc("boom", () => { throw new Error("kaboom"); });
  ctx.registerRpc("hang", () => new Promise(() => {}));
  ctx.registerRpc("fn", () => () => 1);
  ctx.registerRpc("map", () => new Map([["a", 1]]));
  ctx.registerRpc("nan", () => ({ value: NaN }));
  ctx.registerRpc("slow", async (params) => {
    running += 1;
    maxRunning = Math.max(maxRunning, running);
    await new Promise((r) => setTimeout(r, params.ms));
    running -= 1;
    return { maxRunning };
  });
  ctx.registerRpc("emit", (params) => {
    try {
      ctx.emitToSession(params.session, params.event, params.payload);
      return { ok: true };
    } catch (error) {
      return { ok: false, name: error.name, message: error.message };
    }
  });
  ctx.registerRpc("badName", (params) => {
    try {
      ctx.registerRpc(params.name, () => 1);
      return "accepted";
    } catch (error) {
      return error.message;
    }
  });
}`;

beforeAll(async () => {
  temp = tempHome("hermes-plugin-rpc-");
  const dir = path.join(temp.dir, "plugins");
  writePlugin(dir, "rpcer", { "index.js": rpcPlugin });
  writePlugin(dir, "quiet", { "index.js": "export function register() {}" });
  t = await startTestHost({
    home: temp.dir,
    host: { bundledPluginsDir: null, pluginTimings: { deadlines: { rpc: 1_500 } } },
  });
  t.host.events.subscribe((frame) => frames.push(frame));
  await t.host.plugins.ready();
  for (const id of ["rpcer", "quiet"]) await t.call("plugins.setEnabled", { id, enabled: true });
  server = await startWebServer({
    router: t.host.router,
    events: t.host.events,
    token,
    port: 0,
    staticDir: temp.dir,
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await t?.dispose();
  temp?.cleanup();
});

const reasonOf = async (method: string, params?: unknown) =>
  (await t.call(method, params)).error?.data.reason;

describe("plugin.<id>.<method> dispatch", () => {
  it("runs the handler in the plugin's worker with params and session_id", async () => {
    const answer = await t.call("plugin.rpcer.echo", { session_id: "s-1", text: "hi" });
    expect(answer.result).toEqual({ params: { session_id: "s-1", text: "hi" }, sessionId: "s-1" });
    expect((await t.call("plugin.rpcer.echo", {})).result).toEqual({ params: {}, sessionId: null });
    expect((await t.call("plugin.rpcer.nothing", {})).result).toBeNull();
  });

  it("answers plugin_rpc_failed for a throw, a function, a Map and NaN", async () => {
    const boom = await t.call("plugin.rpcer.boom", {});
    expect(boom.error?.data.reason).toBe("plugin_rpc_failed");
    expect(boom.error?.message).toContain("kaboom");
    for (const method of ["fn", "map", "nan"]) {
      const answer = await t.call(`plugin.rpcer.${method}`, {});
      expect(answer.error?.data.reason, method).toBe("plugin_rpc_failed");
    }
    expect((await t.call("plugin.rpcer.map", {})).error?.message).toContain("not JSON");
  });

  it("answers plugin_not_found for an unknown or disabled plugin, method_not_found for an unknown method", async () => {
    expect(await reasonOf("plugin.nobody.echo", {})).toBe("plugin_not_found");
    expect(await reasonOf("plugin.NOT_AN_ID.echo", {})).toBe("plugin_not_found");
    expect(await reasonOf("plugin.rpcer.nope", {})).toBe("method_not_found");
    expect(await reasonOf("plugin.quiet.echo", {})).toBe("method_not_found");
    expect(await reasonOf("plugin.rpcer", {})).toBe("method_not_found");
    expect(await reasonOf("plugin.rpcer.a..b", {})).toBe("method_not_found");
  });

  it("refuses malformed params with invalid_params", async () => {
    expect(await reasonOf("plugin.rpcer.echo", [1, 2])).toBe("invalid_params");
    expect(await reasonOf("plugin.rpcer.echo", "text")).toBe("invalid_params");
    const badSession = await t.call("plugin.rpcer.echo", { session_id: 5 });
    expect(badSession.error?.data).toMatchObject({ reason: "invalid_params", key: "session_id" });
    expect(await reasonOf("plugin.rpcer.echo", { session_id: "../etc" })).toBe("invalid_params");
  });

  it("answers plugin_timeout for a handler that never answers; the plugin stays up", async () => {
    const hung = await t.call("plugin.rpcer.hang", {});
    expect(hung.error?.data.reason).toBe("plugin_timeout");
    expect((await t.call("plugin.rpcer.echo", { a: 1 })).result).toMatchObject({ params: { a: 1 } });
  });

  it("runs at most MAX_RPC_IN_FLIGHT handlers of a plugin at once, queues the next, refuses past the queue", async () => {
    const total = MAX_RPC_IN_FLIGHT + MAX_RPC_QUEUED + 1;
    const calls = Array.from({ length: total }, () => t.call("plugin.rpcer.slow", { ms: 200 }));
    const answers = await Promise.all(calls);
    const busy = answers.filter((a) => a.error?.data.reason === "plugin_busy");
    expect(busy).toHaveLength(1);
    const done = answers.filter((a) => a.result) as { result: { maxRunning: number } }[];
    expect(done).toHaveLength(total - 1);
    expect(Math.max(...done.map((a) => a.result.maxRunning))).toBe(MAX_RPC_IN_FLIGHT);
    // Another plugin is not held up by this one's lanes.
    expect(await reasonOf("plugin.quiet.x", {})).toBe("method_not_found");
  }, 30_000);

  it("refuses bad method names at registration", async () => {
    for (const name of ["a..b", ".lead", "../x", "x".repeat(129), "sp ace", ""]) {
      const answer = await t.call("plugin.rpcer.badName", { name });
      expect(answer.result, name).toMatch(/registerRpc: .*(valid|longer|non-empty)/);
    }
    expect((await t.call("plugin.rpcer.badName", { name: "chart.v2_x-y" })).result).toBe("accepted");
  });

  it("removes the plugin's methods when it is disabled", async () => {
    await t.call("plugins.setEnabled", { id: "quiet", enabled: false });
    expect(await reasonOf("plugin.quiet.x", {})).toBe("plugin_not_found");
    expect(t.host.plugins.rpc.methods("quiet")).toEqual([]);
    await t.call("plugins.setEnabled", { id: "rpcer", enabled: false });
    expect(t.host.plugins.rpc.methods("rpcer")).toEqual([]);
    expect(await reasonOf("plugin.rpcer.echo", {})).toBe("plugin_not_found");
    await t.call("plugins.setEnabled", { id: "rpcer", enabled: true });
    expect((await t.call("plugin.rpcer.echo", {})).result).toBeTruthy();
  }, 30_000);
});

describe("ctx.emitToSession", () => {
  it("delivers plugin.<id>.<event> with the session id", async () => {
    frames.length = 0;
    const answer = await t.call("plugin.rpcer.emit", {
      session: "s-9",
      event: "chart.written",
      payload: { job: "j1", chart: { kind: "bar" } },
    });
    expect(answer.result).toEqual({ ok: true });
    await vi.waitFor(() =>
      expect(frames).toContainEqual({
        jsonrpc: "2.0",
        method: "event",
        params: {
          type: "plugin.rpcer.chart.written",
          session_id: "s-9",
          payload: { job: "j1", chart: { kind: "bar" } },
        },
      }),
    );
  });

  it("refuses bad event names, bad session ids and payloads that are not plain JSON objects", async () => {
    const bad: Array<[string, unknown, unknown]> = [
      ["../x", "s", {}],
      [".lead", "s", {}],
      ["a..b", "s", {}],
      ["x".repeat(129), "s", {}],
      ["ok", "", {}],
      ["ok", "s", [1]],
      ["ok", "s", "text"],
      ["ok", "s", null],
    ];
    frames.length = 0;
    for (const [event, session, payload] of bad) {
      const answer = (await t.call("plugin.rpcer.emit", { session, event, payload })).result as {
        ok: boolean;
        name: string;
        message: string;
      };
      expect(answer, event).toMatchObject({ ok: false, name: "PluginEventError" });
      expect(answer.message).toMatch(/^emitToSession: /);
    }
    expect(frames.filter((f) => f.params.type.startsWith("plugin."))).toEqual([]);
  });

  it("the host checks again what a worker sends (never trusting it)", () => {
    expect(emitProblem("s", "ok", { a: 1 })).toBeNull();
    expect(emitProblem("s", "a..b", {})).toMatch(/not a valid plugin event name/);
    expect(emitProblem("s", "ok", new Map())).toMatch(/plain object/);
    expect(emitProblem("s", "ok", { when: new Date() })).toMatch(/Date/);
    expect(emitProblem("s", "ok", { n: Infinity })).toMatch(/finite/);
    expect(emitProblem("s", "ok", { big: "x".repeat(1024 * 1024 + 1) })).toMatch(/larger than/);
    expect(emitProblem(42, "ok", {})).toMatch(/session id/);
  });
});

describe("over the web-mode WebSocket", () => {
  it("a hung handler never holds up the connection's session.stop or other calls", async () => {
    const ws = new WebSocket(
      `ws://127.0.0.1:${server.port}/rpc`,
      [RPC_SUBPROTOCOL, tokenSubprotocol(token)],
      {
        origin: `http://127.0.0.1:${server.port}`,
      },
    );
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    const order: unknown[] = [];
    const answered = new Promise<void>((resolve) => {
      ws.on("message", (data) => {
        const frame = JSON.parse(String(data)) as { id?: number; error?: { data: { reason: string } } };
        if (frame.id === undefined) return;
        order.push(frame.id === 1 ? `hang:${frame.error?.data.reason}` : frame.id);
        if (order.length === 3) resolve();
      });
    });
    const send = (id: number, method: string, params: unknown) =>
      ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    send(1, "plugin.rpcer.hang", { session_id: "s-1" });
    const created = await t.call("session.create", {});
    const sessionId = (created.result as { sessionId: string }).sessionId;
    send(2, "session.stop", { sessionId });
    send(3, "plugin.rpcer.echo", {});
    await answered;
    expect(order).toEqual([2, 3, "hang:plugin_timeout"]);
    ws.close();
  });
});
