/**
 * What a plugin page's own socket may do (docs/contract.md §8, §11), whatever the transport: send
 * only `plugin.<own id>.<method>` requests (anything else is `plugin_forbidden`), always with the
 * session its token was minted for (the page cannot pick another), and hear only its own plugin's
 * events of that session.
 */
import { RpcError } from "../../rpc/errors.js";
import { errorResponse, type EventFrame, type RequestFrame, type ResponseFrame } from "../../rpc/frames.js";
import { pageParamsFor, splitPluginMethod } from "../../rpc/plugin-names.js";
import { isPlainObject } from "./json-check.js";

export interface PageSocketScope {
  readonly pluginId: string;
  readonly sessionId: string | null;
}

/** The request to route for a page's frame, with the host's session stamped in; or the refusal. */
export function scopePageRequest(
  scope: PageSocketScope,
  frame: unknown,
): { ok: true; request: RequestFrame } | { ok: false; response: ResponseFrame } {
  const fields = isPlainObject(frame) ? frame : {};
  const id = typeof fields.id === "string" || typeof fields.id === "number" ? fields.id : null;
  const refuse = (error: RpcError) => ({ ok: false as const, response: errorResponse(id, error) });
  if (fields.jsonrpc !== "2.0" || id === null || typeof fields.method !== "string") {
    return refuse(
      new RpcError("invalid_request", "A request must be a JSON-RPC 2.0 object with an id and a method."),
    );
  }
  const split = splitPluginMethod(fields.method);
  if (!split || split.pluginId !== scope.pluginId) {
    return refuse(
      new RpcError(
        "plugin_forbidden",
        `A page of plugin '${scope.pluginId}' may call only plugin.${scope.pluginId}.<method>, not "${fields.method.slice(0, 200)}".`,
      ),
    );
  }
  // The page speaks for the session its token names, never another.
  const params = pageParamsFor(fields.params ?? {}, scope.sessionId);
  if (!params.ok) return refuse(new RpcError(params.reason, params.message));
  return { ok: true, request: { jsonrpc: "2.0", id, method: fields.method, params: params.params } };
}

/** Whether a host event goes to the page: its own plugin's event for its own session only. */
export function pageHearsEvent(scope: PageSocketScope, frame: EventFrame): boolean {
  const { type, session_id: sessionId } = frame.params;
  if (scope.sessionId === null || sessionId !== scope.sessionId) return false;
  const split = splitPluginMethod(type);
  return split !== null && split.pluginId === scope.pluginId;
}
