/**
 * The two WebSocket servers of web mode (the app's `/rpc` and plugin pages' sockets), made on the
 * first upgrade: `ws` is half the code the web server loads, and the page's first paint (the shell
 * and its files, served before any socket opens) needs none of it.
 */
import type { WebSocketServer } from "ws";
import { PAGE_SOCKET_PROTOCOL } from "../host/plugins/pages/page-bridge-script.js";
import { RPC_SUBPROTOCOL } from "../host/rpc/web-token.js";

export interface SocketServers {
  /** The app window's connection at `/rpc`. */
  rpc: WebSocketServer;
  /** Plugin pages' own sockets. */
  pages: WebSocketServer;
}

export interface LazySocketServers {
  /** Both servers, loading `ws` the first time it is asked for. */
  get(): Promise<SocketServers>;
  /** Ends every connection and both servers, if they were ever made. */
  close(): Promise<void>;
}

export function lazySocketServers(maxPayload: number): LazySocketServers {
  let made: Promise<SocketServers> | null = null;
  const make = async (): Promise<SocketServers> => {
    const { WebSocketServer } = await import("ws");
    return {
      rpc: new WebSocketServer({
        noServer: true,
        maxPayload,
        // Pick our protocol; the token protocol is read at the handshake and never echoed.
        handleProtocols: (protocols) => (protocols.has(RPC_SUBPROTOCOL) ? RPC_SUBPROTOCOL : false),
      }),
      pages: new WebSocketServer({
        noServer: true,
        maxPayload,
        handleProtocols: (protocols) => (protocols.has(PAGE_SOCKET_PROTOCOL) ? PAGE_SOCKET_PROTOCOL : false),
      }),
    };
  };
  return {
    get: () => (made ??= make()),
    async close() {
      if (!made) return;
      const { rpc, pages } = await made;
      for (const client of [...rpc.clients, ...pages.clients]) client.terminate();
      rpc.close();
      pages.close();
    },
  };
}
