/**
 * The app's half of a plugin page's bridge (docs/contract.md §8), the path a page takes where it has
 * no page socket of its own (the desktop; web mode when the socket can't open). The page (a
 * sandboxed frame, opaque origin) posts requests to the app; this checks the sender of every
 * message (that frame's window, an opaque origin) and that it carries the frame's page token and
 * plugin (a page of another plugin the frame navigated to has neither: its server refuses to serve
 * it with this token), lets through only the page's own plugin's methods, stamps the session the
 * page is shown with into the params, and relays back only its own plugin's events for that
 * session, and only between the document's hello and its goodbye. Answers go to that frame's
 * window with target "*": an opaque origin has no name to target.
 */
import { pageMethodFor, pageParamsFor, type PluginEvent } from "../../../electron/host/rpc/plugin-names.js";
import type { HermesClient } from "../api/client.js";

/** Marks the bridge's messages (the page script uses the same tag). */
export const PAGE_BRIDGE_TAG = "hermes-plugin-bridge";

export interface PageScope {
  pluginId: string;
  /** The session the page is shown with; its events only, and its id in every call's params. */
  sessionId: string | null;
  /** The frame's page token (`plugins.pageSession`); every message of the page must carry it. */
  token: string;
}

type PageClient = Pick<HermesClient, "callPlugin" | "onPluginEvent">;

type BridgeReply =
  | { kind: "response"; id: number; ok: true; result: unknown }
  | { kind: "response"; id: number; ok: false; error: { reason: string; message: string } }
  | { kind: "event"; event: string; payload: Record<string, unknown> };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Starts relaying for one frame; returns the function that stops it. */
export function connectPageFrame(
  client: PageClient,
  win: Pick<Window, "addEventListener" | "removeEventListener">,
  frame: HTMLIFrameElement,
  scope: PageScope,
): () => void {
  const reply = (message: BridgeReply): void => {
    frame.contentWindow?.postMessage({ tag: PAGE_BRIDGE_TAG, ...message }, "*");
  };
  const fail = (id: number, reason: string, message: string) =>
    reply({ kind: "response", id, ok: false, error: { reason, message } });

  // Events go to the frame only while a document of this page said hello with the frame's token.
  let listening = false;

  const onMessage = (event: MessageEvent): void => {
    // Only this frame's own window, and only while it holds a sandboxed (opaque-origin) document.
    if (!frame.contentWindow || event.source !== frame.contentWindow || event.origin !== "null") return;
    const message: unknown = event.data;
    if (!isRecord(message) || message.tag !== PAGE_BRIDGE_TAG) return;
    const ours = message.token === scope.token && message.plugin === scope.pluginId;
    if (message.kind === "hello" || message.kind === "bye") {
      listening = message.kind === "hello" && ours;
      return;
    }
    if (message.kind !== "request") return;
    const id = message.id;
    if (typeof id !== "number" || !Number.isSafeInteger(id)) return;
    if (!ours) {
      return fail(id, "plugin_forbidden", `This frame holds a page of plugin '${scope.pluginId}' only.`);
    }
    const target = pageMethodFor(scope.pluginId, message.method);
    if (!target.ok) return fail(id, target.reason, target.message);
    // The page speaks for the session it is shown with, never another.
    const params = pageParamsFor(message.params, scope.sessionId);
    if (!params.ok) return fail(id, params.reason, params.message);
    client.callPlugin(target.method, params.params).then(
      (result) => reply({ kind: "response", id, ok: true, result }),
      (error: unknown) => {
        const reason = (error as { reason?: unknown }).reason;
        fail(
          id,
          typeof reason === "string" ? reason : "internal_error",
          error instanceof Error ? error.message : String(error),
        );
      },
    );
  };

  const onPluginEvent = (event: PluginEvent): void => {
    if (!listening || event.pluginId !== scope.pluginId || event.sessionId !== scope.sessionId) return;
    reply({ kind: "event", event: event.event, payload: event.payload });
  };

  win.addEventListener("message", onMessage);
  const stopEvents = client.onPluginEvent(onPluginEvent);
  return () => {
    win.removeEventListener("message", onMessage);
    stopEvents();
  };
}
