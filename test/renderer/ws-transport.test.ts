/**
 * The web-mode client against a real `ws` WebSocketServer on 127.0.0.1: JSON-RPC framing, answers
 * matched by id, host errors as HermesRpcError, events, and what happens when the socket drops.
 */
import { afterEach, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer, type RawData } from "ws";
import type { HermesClient, ConnectionStatus, HostEvent } from "../../renderer/src/api/client.js";
import { HermesRpcError } from "../../renderer/src/api/rpc-error.js";
import { createWebSocketClient, type WebSocketConstructorLike } from "../../renderer/src/api/ws-transport.js";

interface Request {
  jsonrpc: string;
  id: number;
  method: string;
  params: unknown;
}

type Responder = (request: Request, socket: WebSocket) => void;

interface TestServer {
  url: string;
  requests: Request[];
  connections: WebSocket[];
  respond: Responder;
  close(): Promise<void>;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startServer(respond: Responder, port = 0): Promise<TestServer> {
  const wss = new WebSocketServer({ host: "127.0.0.1", port });
  await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
  const address = wss.address();
  if (address === null || typeof address === "string") throw new Error("expected a TCP address");
  const server: TestServer = {
    url: `ws://127.0.0.1:${address.port}/rpc`,
    requests: [],
    connections: [],
    respond,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
  wss.on("connection", (socket) => {
    server.connections.push(socket);
    socket.on("message", (data: RawData) => {
      const request = JSON.parse(data.toString()) as Request;
      server.requests.push(request);
      server.respond(request, socket);
    });
  });
  cleanups.push(() => server.close());
  return server;
}

function connect(server: TestServer, options: { initialBackoffMs?: number } = {}): HermesClient {
  const client = createWebSocketClient({
    url: server.url,
    WebSocketImpl: WebSocket as unknown as WebSocketConstructorLike,
    initialBackoffMs: options.initialBackoffMs ?? 20,
    maxBackoffMs: 200,
  });
  cleanups.push(() => client.close());
  return client;
}

function statusReached(client: HermesClient, status: ConnectionStatus): Promise<void> {
  if (client.status === status) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = client.onStatusChange((next) => {
      if (next === status) {
        stop();
        resolve();
      }
    });
  });
}

const answer = (socket: WebSocket, frame: object) =>
  socket.send(JSON.stringify({ jsonrpc: "2.0", ...frame }));

const hostInfo = { version: "9.9.9", mode: "web" as const, home: "/tmp/hermes-test", notices: [] };

describe("WebSocket client", () => {
  it("sends JSON-RPC 2.0 requests with numeric ids and resolves with the matching result", async () => {
    const server = await startServer((request, socket) => {
      if (request.method === "host.info") answer(socket, { id: request.id, result: hostInfo });
      if (request.method === "providers.models") {
        answer(socket, {
          id: request.id,
          result: { models: [`${(request.params as { id: string }).id}/m`] },
        });
      }
    });
    const client = connect(server);

    // Called before the socket opened: queued, then sent.
    const info = await client.call("host.info", {});
    expect(info).toEqual(hostInfo);
    expect(client.status).toBe("connected");

    const [a, b] = await Promise.all([
      client.call("providers.models", { id: "alpha" }),
      client.call("providers.models", { id: "beta" }),
    ]);
    expect(a.models).toEqual(["alpha/m"]);
    expect(b.models).toEqual(["beta/m"]);

    expect(server.requests[0]).toEqual({
      jsonrpc: "2.0",
      id: expect.any(Number),
      method: "host.info",
      params: {},
    });
    const ids = server.requests.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("matches answers that arrive out of order to their own calls", async () => {
    const held: Array<() => void> = [];
    const server = await startServer((request, socket) => {
      const id = (request.params as { id: string }).id;
      held.push(() => answer(socket, { id: request.id, result: { models: [id] } }));
      if (held.length === 2) for (const send of held.reverse()) send();
    });
    const client = connect(server);
    const [first, second] = await Promise.all([
      client.call("providers.models", { id: "first" }),
      client.call("providers.models", { id: "second" }),
    ]);
    expect(first.models).toEqual(["first"]);
    expect(second.models).toEqual(["second"]);
  });

  it("turns an error frame into a HermesRpcError with the host's reason, message and key", async () => {
    const server = await startServer((request, socket) => {
      if (request.method === "providers.save") {
        answer(socket, {
          id: request.id,
          error: {
            code: -32002,
            message: "No keychain answered. Unlock or install a Secret Service, or set key_env.",
            data: { reason: "keychain_unavailable" },
          },
        });
      } else {
        answer(socket, {
          id: request.id,
          error: {
            code: -32602,
            message: "params.key is invalid",
            data: { reason: "invalid_params", key: "display.busy_input_mode" },
          },
        });
      }
    });
    const client = connect(server);

    const saveError = await client
      .call("providers.save", {
        id: "local",
        name: "Local",
        base_url: "http://127.0.0.1:1/v1",
        apiKey: "sk-test-0000",
      })
      .catch((err: unknown) => err);
    expect(saveError).toBeInstanceOf(HermesRpcError);
    expect(saveError).toMatchObject({
      name: "HermesRpcError",
      reason: "keychain_unavailable",
      message: "No keychain answered. Unlock or install a Secret Service, or set key_env.",
      code: -32002,
    });

    const setError = await client
      .call("settings.set", { key: "display.busy_input_mode", value: "nope" })
      .catch((err: unknown) => err);
    expect(setError).toMatchObject({ reason: "invalid_params", key: "display.busy_input_mode" });
  });

  it("delivers event frames to every listener until it unsubscribes", async () => {
    const server = await startServer((request, socket) => {
      answer(socket, { id: request.id, result: hostInfo });
      answer(socket, {
        method: "event",
        params: { type: "settings.changed", session_id: null, payload: {} },
      });
    });
    const client = connect(server);
    const first: HostEvent[] = [];
    const second: HostEvent[] = [];
    const stopFirst = client.onEvent((event) => first.push(event));
    client.onEvent((event) => second.push(event));

    const arrived = new Promise<void>((resolve) => client.onEvent(() => resolve()));
    await client.call("host.info", {});
    await arrived;
    expect(first).toEqual([{ type: "settings.changed", session_id: null, payload: {} }]);

    stopFirst();
    const again = new Promise<void>((resolve) => client.onEvent(() => resolve()));
    await client.call("host.info", {});
    await again;
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(2);
  });

  it("rejects pending calls with connection_lost when the socket drops, then reconnects", async () => {
    let dropNext = true;
    const server = await startServer((request, socket) => {
      if (request.method === "providers.models" && dropNext) {
        dropNext = false;
        socket.terminate();
        return;
      }
      answer(socket, { id: request.id, result: hostInfo });
    });
    const client = connect(server);
    const statuses: ConnectionStatus[] = [];
    client.onStatusChange((status) => statuses.push(status));
    await client.call("host.info", {});

    const lost = await client.call("providers.models", { id: "slow" }).catch((err: unknown) => err);
    expect(lost).toBeInstanceOf(HermesRpcError);
    expect((lost as HermesRpcError).reason).toBe("connection_lost");
    expect((lost as HermesRpcError).message).toMatch(/Lost the connection to Hermes Desktop/);
    expect((lost as HermesRpcError).message).toContain("providers.models");

    await statusReached(client, "connected");
    expect(statuses).toEqual(["connected", "reconnecting", "connected"]);
    expect(server.connections).toHaveLength(2);
    await expect(client.call("host.info", {})).resolves.toEqual(hostInfo);
  });

  it("fails calls fast while reconnecting instead of leaving them waiting", async () => {
    const server = await startServer((request, socket) =>
      answer(socket, { id: request.id, result: hostInfo }),
    );
    const client = connect(server, { initialBackoffMs: 60_000 });
    await client.call("host.info", {});
    await server.close();
    await statusReached(client, "reconnecting");

    const error = await client.call("host.info", {}).catch((err: unknown) => err);
    expect(error).toMatchObject({ name: "HermesRpcError", reason: "connection_lost" });
  });

  it("rejects calls queued before a first connection that never opens", async () => {
    const server = await startServer(() => undefined);
    const url = server.url;
    await server.close();
    const client = createWebSocketClient({
      url,
      WebSocketImpl: WebSocket as unknown as WebSocketConstructorLike,
      initialBackoffMs: 60_000,
    });
    cleanups.push(() => client.close());
    const error = await client.call("host.info", {}).catch((err: unknown) => err);
    expect(error).toMatchObject({ reason: "connection_lost" });
    expect(client.status).toBe("reconnecting");
  });

  it("with connectAfter, opens no socket until it settles, then sends the calls made meanwhile", async () => {
    const server = await startServer((request, socket) =>
      answer(socket, { id: request.id, result: hostInfo }),
    );
    let paint: () => void = () => undefined;
    const client = createWebSocketClient({
      url: server.url,
      WebSocketImpl: WebSocket as unknown as WebSocketConstructorLike,
      connectAfter: new Promise<void>((resolve) => (paint = resolve)),
    });
    cleanups.push(() => client.close());
    const info = client.call("host.info", {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.connections).toHaveLength(0);
    paint();
    expect(await info).toEqual(hostInfo);
    expect(server.connections).toHaveLength(1);
  });

  it("close() rejects what is pending and stops reconnecting", async () => {
    const server = await startServer(() => undefined); // never answers
    const client = connect(server);
    await statusReached(client, "connected");
    const pending = client.call("host.info", {}).catch((err: unknown) => err);
    client.close();
    expect(await pending).toMatchObject({ reason: "connection_lost" });
    await expect(client.call("host.info", {})).rejects.toMatchObject({ reason: "connection_lost" });
    expect(server.connections).toHaveLength(1);
  });
});
