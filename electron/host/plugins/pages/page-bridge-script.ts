/**
 * The script every plugin page gets before its own (docs/contract.md §8): `window.hermesPlugin` with
 * `request(method, params)`, `on(event, fn)` and `sessionId`. Served per plugin, it knows its own
 * plugin id from the server, never from the page. In web mode it talks to the host over the page's
 * own socket (`__hermes/socket`, authenticated by the frame's page token from its URL); where there
 * is no socket (the desktop) or it can't open, it posts to its parent window (the app) instead,
 * naming the parent's origin, and the app checks the sender and the token of every message.
 * The script itself is plain ES2017, with no imports.
 */
import { PAGE_TOKEN_PARAM } from "../../rpc/plugin-names.js";

export const PAGE_BRIDGE_PATH = "__hermes/bridge.js";
/** A page's own WebSocket, under its plugin's prefix (web mode). */
export const PAGE_SOCKET_PATH = "__hermes/socket";
/** The page socket's subprotocol, which the server picks; the token rides in a second one. */
export const PAGE_SOCKET_PROTOCOL = "hermes.page";
export const PAGE_TOKEN_PROTOCOL_PREFIX = "hermes.page.token.";
export { PAGE_TOKEN_PARAM };

export interface PageBridgeConfig {
  pluginId: string;
  /** The page socket's URL (web mode), or null to use the app window only (desktop). */
  socketUrl: string | null;
}

export const pageBridgeScript = (config: PageBridgeConfig): string => `(() => {
  "use strict";
  const config = ${JSON.stringify(config).replace(/</g, "\\u003c")};
  const query = new URLSearchParams(location.search);
  const sessionId = query.get("hermesSession");
  const token = query.get(${JSON.stringify(PAGE_TOKEN_PARAM)});
  const ancestors = location.ancestorOrigins;
  const parentOrigin = (ancestors && ancestors.length > 0 && ancestors[0]) || query.get("hermesParent");
  const parent = window.parent;
  const tag = "hermes-plugin-bridge";
  const ownPrefix = "plugin." + config.pluginId + ".";
  const pending = new Map();
  const listeners = new Map();
  let nextId = 1;
  // "socket" while the page socket is (being) used, "app" once it is not.
  let route = config.socketUrl && token && typeof WebSocket === "function" ? "socket" : "app";
  let socket = null;
  const waiting = [];

  const settle = (id, ok, value) => {
    const call = pending.get(id);
    if (!call) return;
    pending.delete(id);
    if (ok) return call.resolve(value);
    const error = new Error(String(value && value.message));
    error.name = "HermesPluginError";
    error.reason = String((value && value.reason) || "internal_error");
    call.reject(error);
  };
  const emit = (event, payload) => {
    for (const listener of listeners.get(event) || []) {
      try {
        listener(payload);
      } catch (error) {
        console.error("hermesPlugin.on listener failed", error);
      }
    }
  };
  const post = (message) => {
    if (!parentOrigin || parent === window) throw new Error("This page runs outside Hermes Desktop; open it from the app.");
    parent.postMessage(Object.assign({ tag, plugin: config.pluginId, token }, message), parentOrigin);
  };
  const viaApp = (call) => {
    try {
      post({ kind: "request", id: call.id, method: call.method, params: call.params });
    } catch (error) {
      settle(call.id, false, { reason: "unavailable", message: error.message });
    }
  };
  const useApp = () => {
    if (route === "app") return;
    route = "app";
    socket = null;
    try {
      post({ kind: "hello" });
    } catch {
      // Outside the app: each request says so.
    }
    for (const call of waiting.splice(0)) viaApp(call);
  };
  const viaSocket = (call) => {
    const method = call.method.startsWith("plugin.") ? call.method : ownPrefix + call.method;
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: call.id, method, params: call.params }));
  };

  if (route === "socket") {
    socket = new WebSocket(config.socketUrl, [${JSON.stringify(PAGE_SOCKET_PROTOCOL)}, ${JSON.stringify(PAGE_TOKEN_PROTOCOL_PREFIX)} + token]);
    let opened = false;
    socket.onopen = () => {
      opened = true;
      for (const call of waiting.splice(0)) viaSocket(call);
    };
    socket.onmessage = (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame && frame.method === "event" && frame.params && typeof frame.params.type === "string") {
        if (frame.params.type.startsWith(ownPrefix)) emit(frame.params.type.slice(ownPrefix.length), frame.params.payload);
      } else if (frame && typeof frame.id === "number") {
        if (frame.error) settle(frame.id, false, { reason: frame.error.data && frame.error.data.reason, message: frame.error.message });
        else settle(frame.id, true, frame.result);
      }
    };
    socket.onclose = () => {
      if (!opened) return useApp();
      // The host went away or the frame's token was revoked: calls in flight can't be answered.
      for (const id of [...pending.keys()]) settle(id, false, { reason: "disconnected", message: "The connection to Hermes Desktop closed." });
      useApp();
    };
  } else {
    try {
      post({ kind: "hello" });
    } catch {
      // Outside the app: each request says so.
    }
  }
  // The app relays events to this frame only between this document's hello and its goodbye.
  window.addEventListener("pagehide", () => {
    try {
      post({ kind: "bye" });
    } catch {
      // Outside the app: nothing to say goodbye to.
    }
  });

  window.addEventListener("message", (event) => {
    if (route !== "app" || event.source !== parent || event.origin !== parentOrigin) return;
    const message = event.data;
    if (!message || message.tag !== tag) return;
    if (message.kind === "response") settle(message.id, message.ok, message.ok ? message.result : message.error);
    else if (message.kind === "event") emit(message.event, message.payload);
  });

  const api = {
    sessionId,
    request(method, params) {
      return new Promise((resolve, reject) => {
        const call = { id: nextId++, method: String(method), params: params === undefined ? {} : params };
        pending.set(call.id, { resolve, reject });
        if (route === "app") viaApp(call);
        else if (socket.readyState === 1) viaSocket(call);
        else waiting.push(call);
      });
    },
    on(event, listener) {
      if (typeof listener !== "function") throw new TypeError("hermesPlugin.on(event, fn) needs a function");
      const name = String(event);
      if (!listeners.has(name)) listeners.set(name, new Set());
      listeners.get(name).add(listener);
      return () => listeners.get(name).delete(listener);
    },
  };
  Object.defineProperty(window, "hermesPlugin", { value: Object.freeze(api), enumerable: true });
})();
`;

/** Puts the bridge's script tag first in the page's head, so the page's own scripts find it. */
export function injectBridge(html: string, bridgeSrc: string): string {
  const tag = `<script src="${bridgeSrc}"></script>`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + tag + html.slice(head.index + head[0].length);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  if (doctype) return doctype[0] + tag + html.slice(doctype[0].length);
  return tag + html;
}
