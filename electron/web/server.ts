/**
 * Web mode's transport: the host's router over a WebSocket at `/rpc`, the built renderer, and the
 * REST twins of the model methods, on 127.0.0.1 only, behind the launch token and Origin checks.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import type { EventHub } from "../host/events.js";
import type { Router } from "../host/rpc/router.js";
import { checkOrigin, checkToken, tokenCookie, type AccessRules } from "./auth.js";
import { handleRest } from "./rest.js";
import { securityHeaders, serveStatic } from "./static-files.js";

export interface WebServerOptions {
  router: Router;
  events: EventHub;
  token: string;
  /** 0 or absent: a free port. */
  port?: number;
  /** The built renderer (`out/renderer`). */
  staticDir: string;
}

export interface WebServer {
  port: number;
  /** The URL to open, with the token for the first load. */
  url: string;
  close(): Promise<void>;
}

/** Loopback only, by construction: there is no option to bind anywhere else. */
const loopback = "127.0.0.1";
const maxFrameBytes = 16 * 1024 * 1024;

function refuse(res: ServerResponse, status: number, message: string): void {
  res
    .writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" })
    .end(message);
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  let port = options.port ?? 0;
  const rules: AccessRules = { token: options.token, port: () => port };
  const sockets = new Set<Socket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxFrameBytes });

  const server = createServer((req, res) => {
    void handleHttp(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, "Internal error");
      else res.destroy();
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", `http://${loopback}:${port}`);
    const origin = checkOrigin(req, rules);
    if (!origin.ok) return refuse(res, origin.status, `Forbidden: ${origin.why}.`);
    const queryToken = req.method === "GET" ? url.searchParams.get("token") : null;
    const access = checkToken(req, rules, queryToken);
    if (!access.ok) return refuse(res, 401, "Unauthorized: open the URL Hermes Desktop printed at launch.");
    if (queryToken !== null) {
      // Trade the URL token for a cookie so it leaves the address bar and history.
      url.searchParams.delete("token");
      res
        .writeHead(302, {
          "Set-Cookie": `${tokenCookie}=${encodeURIComponent(options.token)}; HttpOnly; SameSite=Strict; Path=/`,
          Location: url.pathname + (url.search || ""),
          "Cache-Control": "no-store",
        })
        .end();
      return;
    }
    if (url.pathname.startsWith("/api/")) return handleRest(req, res, url, options.router);
    if (req.method !== "GET" && req.method !== "HEAD") return refuse(res, 405, "Method not allowed");
    return serveStatic(options.staticDir, url.pathname, res, port);
  }

  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  server.on("upgrade", (req, socket, head) => {
    const url = new URL(req.url ?? "/", `http://${loopback}:${port}`);
    const verdict = (() => {
      const origin = checkOrigin(req, rules);
      if (!origin.ok) return origin;
      return checkToken(req, rules, null);
    })();
    if (url.pathname !== "/rpc" || !verdict.ok) {
      const status = url.pathname !== "/rpc" ? 404 : verdict.ok ? 200 : verdict.status;
      const text = status === 401 ? "Unauthorized" : status === 403 ? "Forbidden" : "Not Found";
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveConnection(ws));
  });

  function serveConnection(ws: WebSocket): void {
    const connectionId = `web:${randomUUID()}`;
    const unsubscribe = options.events.subscribe((frame) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
    });
    ws.on("close", unsubscribe);
    ws.on("message", (data) => {
      let frame: unknown;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        ws.send(
          JSON.stringify({
            jsonrpc: "2.0",
            id: null,
            error: { code: -32700, message: "Frame is not valid JSON", data: { reason: "invalid_request" } },
          }),
        );
        return;
      }
      // Requests run concurrently: a slow call never holds up a stop or another call.
      void options.router.handle(frame, { connectionId }).then((response) => {
        if (response && ws.readyState === ws.OPEN) ws.send(JSON.stringify(response));
      });
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, loopback, () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    port,
    url: `http://${loopback}:${port}/?token=${options.token}`,
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export { securityHeaders };
