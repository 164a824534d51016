/** JSON-RPC 2.0 frames exchanged between a client (renderer, script, plugin page) and the host. */
import type { RpcError, RpcErrorObject } from "./errors.js";

export type RequestId = string | number;

export interface RequestFrame {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: unknown;
}

export type ResponseFrame =
  | { jsonrpc: "2.0"; id: RequestId | null; result: unknown }
  | { jsonrpc: "2.0"; id: RequestId | null; error: RpcErrorObject };

/** Host → client push. `session_id` is null for app-wide events. */
export interface EventFrame {
  jsonrpc: "2.0";
  method: "event";
  params: { type: string; session_id: string | null; payload: unknown };
}

export const isEventFrame = (frame: unknown): frame is EventFrame =>
  typeof frame === "object" && frame !== null && (frame as { method?: unknown }).method === "event";

/** The one way an error answer is built, by the router and by each transport alike. */
export function errorResponse(id: RequestId | null, error: RpcError): ResponseFrame {
  return { jsonrpc: "2.0", id, error: error.toObject() };
}
