/**
 * Web-mode transport: JSON-RPC 2.0 over a WebSocket at `/rpc` (same origin; the launch token rides
 * in the handshake as a subprotocol, never in the URL). Numeric ids and a pending map match answers to calls; when the socket closes,
 * every pending call is rejected with a "connection lost" error and the client reconnects with
 * exponential backoff.
 */
import type { MethodName, ParamsOf, ResultOf } from "../../../electron/host/rpc/contract.js";
import type { ResponseFrame } from "../../../electron/host/rpc/frames.js";
import { readHostEvent } from "../../../electron/host/rpc/events.js";
import { isPluginMethod, readPluginEvent } from "../../../electron/host/rpc/plugin-names.js";
import {
  ListenerSet,
  type ConnectionStatus,
  type HermesClient,
  type HostEvent,
  type PluginEvent,
} from "./client.js";
import { connectionLostError, HermesRpcError } from "./rpc-error.js";

/** The part of the WebSocket API this client uses; the browser's and the `ws` package's both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
}

export type WebSocketConstructorLike = new (url: string, protocols?: string[]) => WebSocketLike;

export interface WebSocketClientOptions {
  url: string;
  /** Offered at every handshake (web mode: `hermes.rpc` and the token protocol). */
  protocols?: string[];
  /** Defaults to the browser's WebSocket; tests pass the `ws` package's. */
  WebSocketImpl?: WebSocketConstructorLike;
  /** Opens the socket once this settles (calls made before wait for it); at once without it. */
  connectAfter?: Promise<unknown>;
  /** First retry delay; doubles per failed attempt up to `maxBackoffMs`. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

const socketOpen = 1;

interface PendingCall {
  method: string;
  resolve(result: unknown): void;
  reject(error: HermesRpcError): void;
}

/** `ws(s)://<this page's host>/rpc`. */
export function sameOriginRpcUrl(location: Pick<Location, "protocol" | "host">): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/rpc`;
}

export function createWebSocketClient(options: WebSocketClientOptions): HermesClient {
  const Impl = options.WebSocketImpl ?? (globalThis.WebSocket as unknown as WebSocketConstructorLike);
  const initialBackoffMs = options.initialBackoffMs ?? 500;
  const maxBackoffMs = options.maxBackoffMs ?? 10_000;

  const events = new ListenerSet<HostEvent>();
  const pluginEvents = new ListenerSet<PluginEvent>();
  const statusListeners = new ListenerSet<ConnectionStatus>();
  const pending = new Map<number, PendingCall>();
  /** Calls made before the very first connection opened; sent once it does. */
  const queued: Array<{ method: string; send(): void; reject(error: HermesRpcError): void }> = [];
  let status: ConnectionStatus = "connecting";
  let socket: WebSocketLike | null = null;
  let nextId = 1;
  let failedAttempts = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  const setStatus = (next: ConnectionStatus): void => {
    if (status === next) return;
    status = next;
    statusListeners.emit(next);
  };

  const rejectAll = (makeError: (method: string) => HermesRpcError): void => {
    const calls = [...pending.values(), ...queued];
    pending.clear();
    queued.length = 0;
    for (const call of calls) call.reject(makeError(call.method));
  };

  const handleFrame = (text: string): void => {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof frame !== "object" || frame === null) return;
    const candidate = frame as { method?: unknown; params?: unknown; id?: unknown };
    if (candidate.method === "event") {
      const event = readHostEvent(candidate.params);
      if (event) events.emit(event);
      else {
        const pluginEvent = readPluginEvent(candidate.params);
        if (pluginEvent) pluginEvents.emit(pluginEvent);
      }
      return;
    }
    if (typeof candidate.id !== "number") return;
    const call = pending.get(candidate.id);
    if (!call) return;
    pending.delete(candidate.id);
    const response = frame as ResponseFrame;
    if ("error" in response && response.error) call.reject(HermesRpcError.fromErrorObject(response.error));
    else if ("result" in response) call.resolve(response.result);
    else
      call.reject(
        new HermesRpcError("malformed_response", `The app sent a malformed answer to "${call.method}".`),
      );
  };

  const connect = (): void => {
    retryTimer = null;
    if (closed) return;
    let ws: WebSocketLike;
    try {
      ws = options.protocols ? new Impl(options.url, options.protocols) : new Impl(options.url);
    } catch {
      scheduleReconnect();
      return;
    }
    socket = ws;
    ws.onopen = () => {
      if (socket !== ws) return;
      failedAttempts = 0;
      setStatus("connected");
      for (const call of queued.splice(0)) call.send();
    };
    ws.onmessage = (event) => {
      if (socket === ws && typeof event.data === "string") handleFrame(event.data);
    };
    // An error is always followed by close; close is where recovery happens.
    ws.onerror = () => undefined;
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      rejectAll(connectionLostError);
      if (closed) return;
      setStatus("reconnecting");
      scheduleReconnect();
    };
  };

  const scheduleReconnect = (): void => {
    if (closed || retryTimer) return;
    const delay = Math.min(maxBackoffMs, initialBackoffMs * 2 ** failedAttempts);
    failedAttempts += 1;
    retryTimer = setTimeout(connect, delay);
  };

  const request = (method: string, params: unknown): Promise<unknown> =>
    new Promise<unknown>((resolve, reject) => {
      if (closed) {
        reject(
          new HermesRpcError(
            "connection_lost",
            "This connection to Hermes Desktop was closed; reload the page.",
          ),
        );
        return;
      }
      const send = (): void => {
        const ws = socket;
        if (!ws || ws.readyState !== socketOpen) {
          reject(connectionLostError(method));
          return;
        }
        const id = nextId++;
        pending.set(id, { method, resolve, reject });
        try {
          ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
        } catch {
          pending.delete(id);
          reject(connectionLostError(method));
        }
      };
      // Before the first connection, wait for it; while reconnecting, fail fast so nobody waits on a spinner.
      if (status === "connecting") queued.push({ method, send, reject });
      else send();
    });

  if (options.connectAfter) void options.connectAfter.then(() => closed || connect());
  else connect();

  return {
    get status() {
      return status;
    },
    call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
      return request(method, params) as Promise<ResultOf<M>>;
    },
    callPlugin(method, params) {
      if (!isPluginMethod(method)) {
        return Promise.reject(new HermesRpcError("method_not_found", `"${method}" is not a plugin method.`));
      }
      return request(method, params);
    },
    onPluginEvent: (listener) => pluginEvents.add(listener),
    onEvent: (listener) => events.add(listener),
    onStatusChange: (listener) => statusListeners.add(listener),
    close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      const ws = socket;
      socket = null;
      rejectAll(() => new HermesRpcError("connection_lost", "The connection to Hermes Desktop was closed."));
      ws?.close();
      events.clear();
      pluginEvents.clear();
      statusListeners.clear();
    },
  };
}
