/**
 * A plugin page's own WebSocket in web mode (docs/contract.md §8, §11), at
 * `/plugin-pages/<id>/__hermes/socket`: the page frame talks to the host directly, not through the
 * app window (one process hop less). The handshake needs this app's Host, an opaque ("null") or
 * no Origin, and a page token minted for this very plugin (`plugins.pageSession`), offered as the
 * `hermes.page.token.<token>` subprotocol beside `hermes.page` (which the server picks); the
 * app's launch token is never accepted here. On the socket the page may only call its own
 * plugin's methods, for the session its token names, and hears only that plugin's events of that
 * session. Revoking the token closes the socket.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { WebSocket, WebSocketServer } from "ws";
import type { Duplex } from "node:stream";
import type { EventHub } from "../host/events.js";
import { RpcError } from "../host/rpc/errors.js";
import { errorResponse, isEventFrame } from "../host/rpc/frames.js";
import type { Router } from "../host/rpc/router.js";
import { PLUGIN_PAGES_PATH, pluginIdPattern } from "../host/rpc/plugin-names.js";
import { PAGE_SOCKET_PATH, PAGE_TOKEN_PROTOCOL_PREFIX } from "../host/plugins/pages/page-bridge-script.js";
import { pageHearsEvent, scopePageRequest } from "../host/plugins/pages/page-socket-rules.js";
import type { PageScope, PageSessions } from "../host/plugins/pages/page-sessions.js";

/** The plugin id of a page socket path, or null when the path is not one. */
export function pageSocketPlugin(pathname: string): string | null {
  if (!pathname.startsWith(PLUGIN_PAGES_PATH) || !pathname.endsWith(`/${PAGE_SOCKET_PATH}`)) return null;
  const id = pathname.slice(PLUGIN_PAGES_PATH.length, pathname.length - PAGE_SOCKET_PATH.length - 1);
  return pluginIdPattern.test(id) ? id : null;
}

function pageToken(req: IncomingMessage): string | null {
  for (const protocol of (req.headers["sec-websocket-protocol"] ?? "").split(",")) {
    const trimmed = protocol.trim();
    if (trimmed.startsWith(PAGE_TOKEN_PROTOCOL_PREFIX))
      return trimmed.slice(PAGE_TOKEN_PROTOCOL_PREFIX.length);
  }
  return null;
}

const reject = (socket: Duplex, status: 401 | 403): void => {
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? "Unauthorized" : "Forbidden"}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
  );
};

export interface PageSocketOptions {
  router: Router;
  events: Pick<EventHub, "subscribe">;
  sessions: PageSessions;
  /** This app's Host header values (`127.0.0.1:<port>`, `localhost:<port>`). */
  allowedHosts: () => Set<string>;
  log: (line: string) => void;
}

/** Handles the upgrade of a page socket (the path names `pluginId`). */
export function upgradePageSocket(
  wss: WebSocketServer,
  options: PageSocketOptions,
  pluginId: string,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): void {
  const host = req.headers.host?.toLowerCase();
  const origin = req.headers.origin;
  // A sandboxed page's origin is opaque: "null". Any real origin (the app's included) is refused.
  if (!host || !options.allowedHosts().has(host) || (origin !== undefined && origin !== "null")) {
    return reject(socket, 403);
  }
  const claim = options.sessions.claim(pageToken(req), pluginId);
  if (!claim.ok) return reject(socket, 401);
  wss.handleUpgrade(req, socket, head, (ws) => servePageSocket(ws, options, claim.scope));
}

function servePageSocket(ws: WebSocket, options: PageSocketOptions, scope: PageScope): void {
  const connectionId = `page:${scope.pluginId}:${randomUUID()}`;
  const send = (frame: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
  };
  const unsubscribe = options.events.subscribe((frame) => {
    if (isEventFrame(frame) && pageHearsEvent(scope, frame)) send(frame);
  });
  const stopOnRevoke = scope.onRevoked(() => ws.close(4001, "page token revoked"));
  ws.on("close", () => {
    unsubscribe();
    stopOnRevoke();
  });
  ws.on("error", (err) => options.log(`Web UI: closing a page socket: ${err.message}`));
  ws.on("message", (data, isBinary) => {
    let frame: unknown;
    try {
      if (isBinary) throw new SyntaxError("binary");
      frame = JSON.parse(data.toString());
    } catch {
      return send(
        errorResponse(
          null,
          new RpcError("parse_error", "Send one JSON-RPC 2.0 request object per text frame."),
        ),
      );
    }
    const scoped = scopePageRequest(scope, frame);
    if (!scoped.ok) return send(scoped.response);
    void options.router.handle(scoped.request, { connectionId }).then((response) => {
      if (response) send(response);
    });
  });
}
