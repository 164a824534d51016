/** Picks the transport: the preload's IPC bridge in the desktop app, else the web-mode WebSocket. */
import { RPC_SUBPROTOCOL, tokenSubprotocol } from "../../../electron/host/rpc/web-token.js";
import type { HermesClient } from "./client.js";
import { createIpcClient, type HermesBridge } from "./ipc-transport.js";
import { takeLaunchToken, writeAfter } from "./launch-token.js";
import { createWebSocketClient, sameOriginRpcUrl } from "./ws-transport.js";

declare global {
  interface Window {
    /** Set by electron/preload.ts in the desktop app; absent in a browser. */
    hermes?: HermesBridge;
  }
}

let tokenMissing = false;

/** True when this web-mode tab has no launch token (opened without the printed URL). */
export const launchTokenMissing = (): boolean => tokenMissing;

/**
 * Settles after the next frame is painted. The page's first paint needs no call, and the host
 * starts its heavy work on the first connection, so connecting after it keeps the two apart.
 */
const afterNextPaint = (win: Window): Promise<void> =>
  new Promise((resolve) => win.requestAnimationFrame(() => win.setTimeout(resolve, 0)));

/** Settles in the page's next idle moment (at most `timeoutMs` on): after what it is busy with. */
const whenIdle = (win: Window, timeoutMs: number): Promise<void> =>
  new Promise((resolve) =>
    typeof win.requestIdleCallback === "function"
      ? win.requestIdleCallback(() => resolve(), { timeout: timeoutMs })
      : win.setTimeout(resolve, 0),
  );

export function createHermesClient(win: Window = window): HermesClient {
  if (win.hermes) return createIpcClient(win.hermes);
  const painted = afterNextPaint(win);
  // The token's bookkeeping waits on the browser process; it runs once the page is up and idle.
  const token = takeLaunchToken(
    win,
    writeAfter(
      painted.then(() => whenIdle(win, 1000)),
      win,
    ),
  );
  tokenMissing = token === null;
  return createWebSocketClient({
    url: sameOriginRpcUrl(win.location),
    protocols: token ? [RPC_SUBPROTOCOL, tokenSubprotocol(token)] : [RPC_SUBPROTOCOL],
    connectAfter: painted,
  });
}
