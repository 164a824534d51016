/**
 * The script every plugin page gets before its own (docs/contract.md §8): `window.hermesPlugin` with
 * `request(method, params)`, `on(event, fn)` and `sessionId`. It talks only to its parent window
 * (the app), posting to the parent's origin by name; the app checks the sender of every message
 * and scopes what it forwards to this page's own plugin and session. Plain ES2017, no imports.
 */
export const PAGE_BRIDGE_PATH = "__hermes/bridge.js";

export const pageBridgeScript = `(() => {
  "use strict";
  const query = new URLSearchParams(location.search);
  const sessionId = query.get("hermesSession");
  const ancestors = location.ancestorOrigins;
  const parentOrigin = (ancestors && ancestors.length > 0 && ancestors[0]) || query.get("hermesParent");
  const tag = "hermes-plugin-bridge";
  const pending = new Map();
  const listeners = new Map();
  let nextId = 1;
  const post = (message) => {
    if (!parentOrigin || window.parent === window) throw new Error("This page runs outside Hermes Desktop; open it from the app.");
    window.parent.postMessage(Object.assign({ tag }, message), parentOrigin);
  };
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent || event.origin !== parentOrigin) return;
    const message = event.data;
    if (!message || message.tag !== tag) return;
    if (message.kind === "response") {
      const call = pending.get(message.id);
      if (!call) return;
      pending.delete(message.id);
      if (message.ok) call.resolve(message.result);
      else {
        const error = new Error(String(message.error && message.error.message));
        error.name = "HermesPluginError";
        error.reason = String(message.error && message.error.reason);
        call.reject(error);
      }
    } else if (message.kind === "event") {
      for (const listener of listeners.get(message.event) || []) {
        try {
          listener(message.payload);
        } catch (error) {
          console.error("hermesPlugin.on listener failed", error);
        }
      }
    }
  });
  const api = {
    sessionId,
    request(method, params) {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        try {
          post({ kind: "request", id, method: String(method), params: params === undefined ? {} : params });
        } catch (error) {
          pending.delete(id);
          reject(error);
        }
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
