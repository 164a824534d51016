/**
 * Web mode's transport: the host's router over a WebSocket at `/rpc`, the built renderer, and the
 * REST twins of the model methods, on 127.0.0.1 only, behind the launch token and Origin checks.
 * The page shell and its assets hold no secret and are served without the token (the page keeps
 * the token in session storage, so a reload needs it in no URL and no cookie); `/api/` and `/rpc`
 * need it. A connection that misbehaves (an oversized frame) is closed alone.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { WebSocket } from "ws";
import type { EventHub } from "../host/events.js";
import { RpcError } from "../host/rpc/errors.js";
import { errorResponse } from "../host/rpc/frames.js";
import type { Router } from "../host/rpc/router.js";
import { PLUGIN_PAGES_PATH, pluginIdPattern } from "../host/rpc/plugin-names.js";
import { servePluginPage, type PageSite } from "../host/plugins/pages/page-site.js";
import { PAGE_SOCKET_PATH, PAGE_TOKEN_PARAM } from "../host/plugins/pages/page-bridge-script.js";
import type { PageSessions } from "../host/plugins/pages/page-sessions.js";
import { pageSocketPlugin, upgradePageSocket } from "./page-socket.js";
import {
  bearerToken,
  checkOrigin,
  checkPageRequest,
  checkToken,
  requireStrongToken,
  subprotocolToken,
  type AccessRules,
} from "./auth.js";
import { handleRest } from "./rest.js";
import { readShellAhead, securityHeaders, serveStatic } from "./static-files.js";
import { lazySocketServers, type SocketServers } from "./socket-servers.js";

export interface WebServerOptions {
  router: Router;
  /** Where event frames come from (each connection subscribes). */
  events: Pick<EventHub, "subscribe">;
  token: string;
  /** 0 or absent: a free port. */
  port?: number;
  /** The built renderer (`out/renderer`). */
  staticDir: string;
  /** The page folders of an enabled plugin (docs/contract.md §8), served at `/plugin-pages/<id>/…`. */
  pluginPages?: (pluginId: string) => PageSite | null;
  /** Page frames' tokens (`plugins.pageSession`); with them, each page gets its own socket. */
  pageSessions?: PageSessions;
  /** Where a line about a dropped connection goes; default stderr. */
  log?: (line: string) => void;
  /** Told each time a file of the page (the shell or an asset) is about to be served. */
  onPageFile?: () => void;
}

export interface WebServer {
  port: number;
  /** The URL to open, with the token for the first load. */
  url: string;
  close(): Promise<void>;
}

/** Loopback only, by construction: there is no option to bind anywhere else. */
const loopback = "127.0.0.1";
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;
const pluginPagesPrefix = PLUGIN_PAGES_PATH;

function refuse(res: ServerResponse, status: number, message: string): void {
  res
    .writeHead(status, {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
    })
    .end(message);
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  requireStrongToken(options.token);
  const log = options.log ?? ((line: string) => console.warn(line));
  let port = options.port ?? 0;
  const rules: AccessRules = { token: options.token, port: () => port };
  const sockets = new Set<Socket>();
  const socketServers = lazySocketServers(MAX_FRAME_BYTES);

  const server = createServer((req, res) => {
    void handleHttp(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, "Internal error");
      else res.destroy();
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", `http://${loopback}:${port}`);
    if (url.pathname.startsWith(pluginPagesPrefix)) return handlePluginPage(req, res, url);
    const origin = checkOrigin(req, rules);
    if (!origin.ok) return refuse(res, origin.status, `Forbidden: ${origin.why}.`);
    const unauthorized = "Unauthorized: open the URL Hermes Desktop printed at launch.";
    if (url.pathname.startsWith("/api/")) {
      if (!checkToken(bearerToken(req), rules).ok) return refuse(res, 401, unauthorized);
      return handleRest(req, res, url, options.router);
    }
    if (req.method !== "GET" && req.method !== "HEAD") return refuse(res, 405, "Method not allowed");
    // The shell needs no token, but a wrong one in the URL is worth saying so at once.
    const queryToken = url.searchParams.get("token");
    if (queryToken !== null && !checkToken(queryToken, rules).ok) return refuse(res, 401, unauthorized);
    options.onPageFile?.();
    return serveStatic(options.staticDir, url.pathname, res, port);
  }

  /** No token: page files hold no secret, and the page (an opaque origin) could not send one. */
  async function handlePluginPage(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const verdict = checkPageRequest(req, rules);
    if (!verdict.ok) return refuse(res, verdict.status, `Forbidden: ${verdict.why}.`);
    if (req.method !== "GET" && req.method !== "HEAD") return refuse(res, 405, "Method not allowed");
    const rest = url.pathname.slice(pluginPagesPrefix.length);
    const slash = rest.indexOf("/");
    const pluginId = slash > 0 ? rest.slice(0, slash) : "";
    const site = pluginIdPattern.test(pluginId) ? (options.pluginPages?.(pluginId) ?? null) : null;
    const host = req.headers.host ?? `${loopback}:${port}`;
    const base = `${pluginPagesPrefix}${pluginId}/`;
    const token = url.searchParams.get(PAGE_TOKEN_PARAM);
    const answer = await servePluginPage(site, slash > 0 ? rest.slice(slash + 1) : "", {
      base,
      selfOrigin: `http://${host}`,
      frameAncestors: [`http://${loopback}:${port}`, `http://localhost:${port}`],
      pluginId,
      socketUrl: options.pageSessions ? `ws://${host}${base}${PAGE_SOCKET_PATH}` : null,
      tokenFits: token === null || (options.pageSessions?.servesWith(token, pluginId) ?? false),
    });
    res.writeHead(answer.status, answer.headers);
    res.end(req.method === "HEAD" ? undefined : answer.body);
  }

  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  server.on("upgrade", (req, socket: Duplex, head: Buffer) => {
    // Only the first upgrade waits (for ws to load); a client gone meanwhile must not throw.
    const dropOnError = () => socket.destroy();
    socket.on("error", dropOnError);
    void socketServers.get().then((servers) => {
      socket.off("error", dropOnError);
      if (!socket.destroyed) upgrade(servers, req, socket, head);
    }, dropOnError);
  });

  function upgrade(servers: SocketServers, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? "/", `http://${loopback}:${port}`);
    const pagePlugin = options.pageSessions ? pageSocketPlugin(url.pathname) : null;
    if (pagePlugin !== null && options.pageSessions) {
      const pageOptions = {
        router: options.router,
        events: options.events,
        sessions: options.pageSessions,
        allowedHosts: () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]),
        log,
      };
      return upgradePageSocket(servers.pages, pageOptions, pagePlugin, req, socket, head);
    }
    const verdict = (() => {
      const origin = checkOrigin(req, rules);
      if (!origin.ok) return origin;
      return checkToken(bearerToken(req) ?? subprotocolToken(req), rules);
    })();
    if (url.pathname !== "/rpc" || !verdict.ok) {
      const status = url.pathname !== "/rpc" ? 404 : verdict.ok ? 200 : verdict.status;
      const text = status === 401 ? "Unauthorized" : status === 403 ? "Forbidden" : "Not Found";
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    servers.rpc.handleUpgrade(req, socket, head, (ws) => serveConnection(ws));
  }

  function serveConnection(ws: WebSocket): void {
    const connectionId = `web:${randomUUID()}`;
    const unsubscribe = options.events.subscribe((frame) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
    }, connectionId);
    ws.on("close", () => {
      unsubscribe();
      // The app window is gone, and with it its page frames: their tokens die too.
      options.pageSessions?.endConnection(connectionId);
    });
    // Without a listener an 'error' would kill the host. ws has already begun closing this one
    // connection with the matching code (1009 for an oversized frame); only say so.
    ws.on("error", (err) => log(`Web UI: closing a connection: ${err.message}`));
    const refuseFrame = (message: string) =>
      ws.send(JSON.stringify(errorResponse(null, new RpcError("parse_error", message))));
    ws.on("message", (data, isBinary) => {
      if (isBinary) return refuseFrame("Frames must be text (JSON-RPC 2.0 as UTF-8 JSON), not binary.");
      let frame: unknown;
      try {
        frame = JSON.parse(data.toString());
      } catch (err) {
        return refuseFrame(
          err instanceof RangeError
            ? "Frame nests too deeply to read; send flatter JSON."
            : "Frame is not valid JSON; send one JSON-RPC 2.0 request object per frame.",
        );
      }
      // Requests run concurrently: a slow call never holds up a stop or another call.
      void options.router.handle(frame, { connectionId }).then((response) => {
        if (response && ws.readyState === ws.OPEN) ws.send(JSON.stringify(response));
      });
    });
  }

  // The page's first files are read into memory before anyone can ask for them.
  readShellAhead(options.staticDir);
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
      await socketServers.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export { securityHeaders };
