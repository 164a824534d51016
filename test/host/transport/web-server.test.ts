import { networkInterfaces } from "node:os";
import { connect } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  RPC_SUBPROTOCOL,
  tokenFromSubprotocol,
  tokenSubprotocol,
} from "../../../electron/host/rpc/web-token.js";
import type { WebServer } from "../../../electron/web/server.js";
import type { TestHost } from "../support/test-host.js";
import { startWebTestServer, type WebTestServer } from "../support/web-test-server.js";

const token = "test-token-abcdefghijklmnopqrstuvwxyz";
let t: TestHost;
let server: WebServer;
let web: WebTestServer;

beforeEach(async () => {
  web = await startWebTestServer(token);
  ({ t, server } = web);
});

afterEach(async () => web.dispose());

const base = () => `http://127.0.0.1:${server.port}`;

function openSocket(headers: Record<string, string>, protocols: string[] = []): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/rpc`, protocols, { headers });
    ws.once("open", () => resolve(ws));
    ws.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once("error", reject);
  });
}

function rpc(
  ws: WebSocket,
  frame: object,
): Promise<{ result?: unknown; error?: { data: { reason: string }; message: string } }> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const parsed = JSON.parse(data.toString());
      if (parsed.id === (frame as { id?: unknown }).id) {
        ws.off("message", onMessage);
        resolve(parsed);
      }
    };
    ws.on("message", onMessage);
    ws.send(JSON.stringify(frame));
  });
}

describe("web transport", () => {
  it("answers 401 without a token and with a wrong one, on /api and /rpc", async () => {
    expect((await fetch(`${base()}/api/model/auxiliary`)).status).toBe(401);
    const wrong = { headers: { Authorization: "Bearer nope" } };
    expect((await fetch(`${base()}/api/model/auxiliary`, wrong)).status).toBe(401);
    expect((await fetch(`${base()}/?token=nope`)).status).toBe(401);
    await expect(openSocket({})).rejects.toThrow("HTTP 401");
    await expect(openSocket({}, [RPC_SUBPROTOCOL, tokenSubprotocol("nope")])).rejects.toThrow("HTTP 401");
    await expect(openSocket({ Cookie: `hermes_token=${token}` })).rejects.toThrow("HTTP 401");
  });

  it("answers 403 to a foreign Origin even with the token", async () => {
    const res = await fetch(`${base()}/`, {
      headers: { Authorization: `Bearer ${token}`, Origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    await expect(
      openSocket({ Authorization: `Bearer ${token}`, Origin: "https://evil.example" }),
    ).rejects.toThrow("HTTP 403");
  });

  it("serves the page shell without the token and sets no cookie, not even for ?token=", async () => {
    for (const path of ["/", `/?token=${token}`, "/settings/providers"]) {
      const page = await fetch(`${base()}${path}`, { redirect: "manual" });
      expect(page.status, path).toBe(200);
      expect(page.headers.get("set-cookie"), path).toBeNull();
      expect(page.headers.get("location"), path).toBeNull();
      expect(page.headers.get("referrer-policy"), path).toBe("no-referrer");
      expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
      expect(await page.text()).toContain("<title>Hermes</title>");
    }
  });

  it("opens /rpc with the token subprotocol and never echoes the token", async () => {
    const ws = await openSocket({ Origin: base() }, [RPC_SUBPROTOCOL, tokenSubprotocol(token)]);
    expect(ws.protocol).toBe(RPC_SUBPROTOCOL);
    const info = await rpc(ws, { jsonrpc: "2.0", id: 1, method: "host.info", params: {} });
    expect(info.result).toMatchObject({ mode: "web" });
    ws.close();
    expect(tokenFromSubprotocol(tokenSubprotocol("ä token with spaces"))).toBe("ä token with spaces");
  });

  it("binds to loopback only", async () => {
    const address = (server as unknown as { port: number }).port;
    expect(address).toBeGreaterThan(0);
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && !i.internal && i.family === "IPv4")
      .map((i) => i!.address);
    for (const ip of external) {
      const reached = await new Promise<boolean>((resolve) => {
        const socket = connect({ host: ip, port: server.port }, () => {
          socket.destroy();
          resolve(true);
        });
        socket.once("error", () => resolve(false));
      });
      expect(reached, `reachable on ${ip}`).toBe(false);
    }
    const local = await fetch(`${base()}/`, { headers: { Authorization: `Bearer ${token}` } });
    expect(local.status).toBe(200);
  });

  it("answers method_not_found and invalid_params over the WebSocket", async () => {
    const ws = await openSocket({ Authorization: `Bearer ${token}` });
    const unknown = await rpc(ws, { jsonrpc: "2.0", id: 1, method: "no.such.method", params: {} });
    expect(unknown.error?.data.reason).toBe("method_not_found");
    const bad = await rpc(ws, {
      jsonrpc: "2.0",
      id: 2,
      method: "providers.save",
      params: { id: "x", name: "X" },
    });
    expect(bad.error?.data.reason).toBe("invalid_params");
    expect(bad.error?.message).toContain("params.base_url");
    const info = await rpc(ws, { jsonrpc: "2.0", id: 3, method: "host.info", params: {} });
    expect(info.result).toMatchObject({ mode: "web", version: "0.0.0-test", notices: [] });
    ws.close();
  });

  it("pushes events to connected clients", async () => {
    const ws = await openSocket({ Authorization: `Bearer ${token}` });
    const received = new Promise<unknown>((resolve) =>
      ws.on("message", (data) => {
        const frame = JSON.parse(data.toString());
        if (frame.method === "event") resolve(frame);
      }),
    );
    t.host.events.emit("session.title", "s1", { title: "Hello" });
    expect(await received).toEqual({
      jsonrpc: "2.0",
      method: "event",
      params: { type: "session.title", session_id: "s1", payload: { title: "Hello" } },
    });
    ws.close();
  });

  it("refuses a Host header that is not loopback (DNS rebinding)", async () => {
    const res = await new Promise<number>((resolve, reject) => {
      const socket = connect({ host: "127.0.0.1", port: server.port }, () => {
        socket.write(
          `GET / HTTP/1.1\r\nHost: evil.example:${server.port}\r\nAuthorization: Bearer ${token}\r\n\r\n`,
        );
      });
      socket.once("data", (d) => {
        resolve(Number(d.toString().split(" ")[1]));
        socket.destroy();
      });
      socket.once("error", reject);
    });
    expect(res).toBe(403);
  });

  it("keeps serving when a client hangs up during the first upgrade (while ws loads)", async () => {
    // The first upgrade waits for the WebSocket code to load; a client gone by then is dropped alone.
    await new Promise<void>((resolve, reject) => {
      const socket = connect({ host: "127.0.0.1", port: server.port }, () => {
        socket.write(
          `GET /rpc HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nUpgrade: websocket\r\n` +
            `Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n` +
            `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n` +
            `Sec-WebSocket-Protocol: ${RPC_SUBPROTOCOL}, ${tokenSubprotocol(token)}\r\n\r\n`,
        );
        socket.destroy();
        resolve();
      });
      socket.once("error", reject);
    });
    const ws = await openSocket({}, [RPC_SUBPROTOCOL, tokenSubprotocol(token)]);
    const info = await rpc(ws, { jsonrpc: "2.0", id: 1, method: "host.info" });
    expect(info.result).toMatchObject({ mode: "web" });
    ws.close();
  });
});
