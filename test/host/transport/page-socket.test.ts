/**
 * A plugin page's own socket in web mode (docs/contract.md §8, §11), against a real host and web server
 * with a real `ws` client: a page token minted by the app opens only its own plugin's socket, only
 * with an opaque (or no) Origin; on it the page calls only `plugin.<own id>.<method>` (core methods
 * and other plugins' are `plugin_forbidden`), always for its token's session, and hears only its
 * own plugin's events of that session. Forged, expired, revoked and other plugins' tokens and the
 * app's launch token are refused; the app's connection closing revokes its pages' tokens.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { ManualClock } from "../../fixtures/manual-clock.js";
import {
  PAGE_SOCKET_PROTOCOL,
  PAGE_TOKEN_PROTOCOL_PREFIX,
} from "../../../electron/host/plugins/pages/page-bridge-script.js";
import {
  PAGE_TOKEN_OPEN_WINDOW_MS,
  PageSessions,
} from "../../../electron/host/plugins/pages/page-sessions.js";
import { RPC_SUBPROTOCOL, tokenSubprotocol } from "../../../electron/host/rpc/web-token.js";
import { startWebServer, type WebServer } from "../../../electron/web/server.js";
import { writePlugin } from "../plugins/plugin-rig.js";
import { startTestHost, type TestHost } from "../support/test-host.js";
import { tempHome } from "../support/temp-home.js";

const appToken = "test-token-abcdefghijklmnop-page-socket";
let t: TestHost;
let temp: { dir: string; cleanup(): void };
let server: WebServer;

const pageManifest = (id: string) =>
  `name: ${id}\nversion: 1.0.0\ndescription: Page plugin ${id}.\nmain: index.js\npages:\n  - {id: main, title: Main, entry: page/index.html}\n`;
const backend = `export function register(ctx) {
  ctx.registerRpc("whoami", (params, context) => ({ sessionId: context.sessionId, sent: params.session_id ?? null }));
  ctx.registerRpc("emit", (params) => { ctx.emitToSession(params.to, params.event, { n: params.n }); return true; });
}`;
const page = { "index.js": backend, "page/index.html": "<!doctype html><title>p</title>" };

beforeAll(async () => {
  temp = tempHome("hermes-page-socket-");
  const dir = path.join(temp.dir, "plugins");
  writePlugin(dir, "alpha", page, pageManifest("alpha"));
  writePlugin(dir, "beta", page, pageManifest("beta"));
  writePlugin(dir, "nopage", { "index.js": backend });
  t = await startTestHost({ home: temp.dir, host: { bundledPluginsDir: null } });
  await t.host.plugins.ready();
  for (const id of ["alpha", "beta", "nopage"]) await t.call("plugins.setEnabled", { id, enabled: true });
  await vi.waitFor(() => expect(["alpha", "beta"].every((id) => t.host.plugins.isLoaded(id))).toBe(true), {
    timeout: 10_000,
    interval: 25,
  });
  server = await startWebServer({
    router: t.host.router,
    events: t.host.events,
    token: appToken,
    port: 0,
    staticDir: temp.dir,
    pluginPages: (id) => t.host.plugins.pageSite(id),
    pageSessions: t.host.pageSessions,
    log: () => undefined,
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await t?.dispose();
  temp?.cleanup();
});

interface Frame {
  id?: number | null;
  result?: unknown;
  error?: { message: string; data: { reason: string } };
  method?: string;
  params?: { type: string; session_id: string | null; payload: unknown };
}

/** A socket with every frame it received, and a request helper. */
function client(ws: WebSocket) {
  const frames: Frame[] = [];
  let seq = 0;
  ws.on("message", (data) => frames.push(JSON.parse(String(data)) as Frame));
  const request = async (method: string, params: unknown = {}): Promise<Frame> => {
    const id = ++seq;
    ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    for (let i = 0; i < 400; i++) {
      const answer = frames.find((f) => f.id === id);
      if (answer) return answer;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no answer to ${method}`);
  };
  return { ws, frames, request };
}

function open(
  url: string,
  protocols: string[],
  headers: Record<string, string> = { Origin: "null" },
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers });
    ws.once("open", () => resolve(ws));
    ws.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once("error", reject);
  });
}

const socketUrl = (id: string, port = server.port) =>
  `ws://127.0.0.1:${port}/plugin-pages/${id}/__hermes/socket`;
const pageProtocols = (token: string) => [PAGE_SOCKET_PROTOCOL, PAGE_TOKEN_PROTOCOL_PREFIX + token];
const openPage = async (id: string, token: string, headers?: Record<string, string>) =>
  client(await open(socketUrl(id), pageProtocols(token), headers));

async function appSocket() {
  return client(
    await open(`ws://127.0.0.1:${server.port}/rpc`, [RPC_SUBPROTOCOL, tokenSubprotocol(appToken)], {}),
  );
}

async function mint(app: ReturnType<typeof client>, id: string, sessionId: string | null): Promise<string> {
  const answer = await app.request("plugins.pageSession", { id, sessionId });
  expect(answer.error).toBeUndefined();
  return (answer.result as { token: string }).token;
}

const settle = () => new Promise((r) => setTimeout(r, 150));

describe("a plugin page's own socket", () => {
  it("calls its own plugin's methods with its token's session, whatever the page sends", async () => {
    const app = await appSocket();
    const token = await mint(app, "alpha", "s-1");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token).not.toContain(appToken);
    const pageSocket = await openPage("alpha", token);
    const answer = await pageSocket.request("plugin.alpha.whoami", { session_id: "someone-else" });
    expect(answer.result).toEqual({ sessionId: "s-1", sent: "s-1" });
    pageSocket.ws.close();
    app.ws.close();
  });

  it("refuses other plugins' methods and every core method as plugin_forbidden, and bad frames", async () => {
    const app = await appSocket();
    const pageSocket = await openPage("alpha", await mint(app, "alpha", "s-1"));
    for (const method of [
      "plugin.beta.whoami",
      "plugin.nopage.whoami",
      "session.list",
      "settings.get",
      "settings.set",
      "host.info",
      "plugins.setEnabled",
      "plugins.pageSession",
      "whoami",
    ]) {
      const answer = await pageSocket.request(method, {});
      expect(answer.error?.data.reason, method).toBe("plugin_forbidden");
    }
    expect((await pageSocket.request("plugin.alpha.nope")).error?.data.reason).toBe("method_not_found");
    expect((await pageSocket.request("plugin.alpha.whoami", [1])).error?.data.reason).toBe("invalid_params");
    pageSocket.ws.send("{not json");
    pageSocket.ws.send(JSON.stringify({ id: 99, method: "plugin.alpha.whoami" }));
    await vi.waitFor(() => {
      expect(pageSocket.frames.some((f) => f.id === null && f.error?.data.reason === "parse_error")).toBe(
        true,
      );
      expect(pageSocket.frames.find((f) => f.id === 99)?.error?.data.reason).toBe("invalid_request");
    });
    pageSocket.ws.close();
    app.ws.close();
  });

  it("hears only its own plugin's events of its own session", async () => {
    const app = await appSocket();
    const alpha = await openPage("alpha", await mint(app, "alpha", "s-1"));
    const beta = await openPage("beta", await mint(app, "beta", "s-1"));
    await t.call("plugin.alpha.emit", { to: "s-1", event: "tick", n: 1 });
    await t.call("plugin.alpha.emit", { to: "s-2", event: "tick", n: 2 });
    await t.call("plugin.beta.emit", { to: "s-1", event: "tick", n: 3 });
    t.host.events.emit("plugins.changed", null, {});
    await settle();
    const events = (c: ReturnType<typeof client>) =>
      c.frames.filter((f) => f.method === "event").map((f) => [f.params!.type, f.params!.payload]);
    expect(events(alpha)).toEqual([["plugin.alpha.tick", { n: 1 }]]);
    expect(events(beta)).toEqual([["plugin.beta.tick", { n: 3 }]]);
    // The app's own connection hears everything, as before.
    expect(events(app).map(([type]) => type)).toEqual(
      expect.arrayContaining(["plugin.alpha.tick", "plugin.beta.tick", "plugins.changed"]),
    );
    alpha.ws.close();
    beta.ws.close();
    app.ws.close();
  });

  it("refuses a forged token, another plugin's token, the app's launch token, and a real Origin", async () => {
    const app = await appSocket();
    const alphaToken = await mint(app, "alpha", "s-1");
    await expect(openPage("alpha", "A".repeat(43))).rejects.toThrow("HTTP 401");
    await expect(openPage("alpha", "")).rejects.toThrow("HTTP 401");
    await expect(openPage("beta", alphaToken)).rejects.toThrow("HTTP 401");
    await expect(openPage("alpha", appToken)).rejects.toThrow("HTTP 401");
    await expect(
      open(socketUrl("alpha"), [PAGE_SOCKET_PROTOCOL, tokenSubprotocol(appToken)], { Origin: "null" }),
    ).rejects.toThrow("HTTP 401");
    await expect(
      open(socketUrl("alpha"), [RPC_SUBPROTOCOL], { Origin: "null", Authorization: `Bearer ${appToken}` }),
    ).rejects.toThrow("HTTP 401");
    // An opaque origin gets nothing of the app's socket, even with the app's token.
    await expect(
      open(`ws://127.0.0.1:${server.port}/rpc`, [RPC_SUBPROTOCOL, tokenSubprotocol(appToken)], {
        Origin: "null",
      }),
    ).rejects.toThrow("HTTP 403");
    // A page token is no key to the app's socket, and the app's origin may not use a page socket.
    await expect(
      open(`ws://127.0.0.1:${server.port}/rpc`, [RPC_SUBPROTOCOL, tokenSubprotocol(alphaToken)], {}),
    ).rejects.toThrow("HTTP 401");
    await expect(
      openPage("alpha", alphaToken, { Origin: `http://127.0.0.1:${server.port}` }),
    ).rejects.toThrow("HTTP 403");
    await expect(openPage("alpha", alphaToken, { Origin: "https://evil.example" })).rejects.toThrow(
      "HTTP 403",
    );
    await expect(
      open(socketUrl("alpha"), pageProtocols(alphaToken), { Origin: "null", Host: "evil.example" }),
    ).rejects.toThrow("HTTP 403");
    app.ws.close();
  });

  it("is refused once revoked, and closes when its token is revoked or its app connection closes", async () => {
    const app = await appSocket();
    const ended = await mint(app, "alpha", "s-1");
    const live = await openPage("alpha", ended);
    const closed = new Promise<number>((resolve) => live.ws.once("close", (code) => resolve(code)));
    // Only the connection that minted it may end it.
    expect((await t.call("plugins.pageSessionEnd", { token: ended }, "someone")).result).toEqual({
      ended: false,
    });
    expect((await app.request("plugins.pageSessionEnd", { token: ended })).result).toEqual({ ended: true });
    expect(await closed).toBe(4001);
    await expect(openPage("alpha", ended)).rejects.toThrow("HTTP 401");

    const token = await mint(app, "alpha", "s-1");
    const page = await openPage("alpha", token);
    const pageClosed = new Promise((resolve) => page.ws.once("close", resolve));
    app.ws.close();
    await pageClosed;
    await expect(openPage("alpha", token)).rejects.toThrow("HTTP 401");
  });

  it("mints tokens only for an enabled plugin with pages", async () => {
    expect((await t.call("plugins.pageSession", { id: "nopage", sessionId: "s-1" })).error?.data.reason).toBe(
      "plugin_not_found",
    );
    expect((await t.call("plugins.pageSession", { id: "ghost", sessionId: null })).error?.data.reason).toBe(
      "plugin_not_found",
    );
    expect(
      (await t.call("plugins.pageSession", { id: "alpha", sessionId: "../x y" })).error?.data.reason,
    ).toBe("invalid_params");
  });

  it("refuses a token past its opening window", async () => {
    const clock = new ManualClock();
    const sessions = new PageSessions(clock);
    const other = await startWebServer({
      router: t.host.router,
      events: t.host.events,
      token: appToken,
      port: 0,
      staticDir: temp.dir,
      pageSessions: sessions,
      log: () => undefined,
    });
    try {
      const { token } = sessions.mint("web:x", "alpha", "s-1");
      const early = client(await open(socketUrl("alpha", other.port), pageProtocols(token)));
      early.ws.close();
      clock.advance(PAGE_TOKEN_OPEN_WINDOW_MS + 1);
      await expect(open(socketUrl("alpha", other.port), pageProtocols(token))).rejects.toThrow("HTTP 401");
    } finally {
      await other.close();
    }
  });
});
