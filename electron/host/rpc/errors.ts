/**
 * Stable error reasons carried in `error.data.reason` (docs/contract.md §11). Clients branch on these,
 * never on message text.
 */
export type ErrorReason =
  | "invalid_params"
  | "invalid_request"
  | "parse_error"
  | "method_not_found"
  | "unauthorized"
  | "keychain_unavailable"
  | "not_found"
  | "conflict"
  | "provider_error"
  | "store_error"
  | "config_unreadable"
  | "plugin_not_found"
  | "plugin_rpc_failed"
  // Plugin RPC (docs/contract.md §8, §5.4): no answer within the deadline, the worker died, too many calls
  // in flight for that plugin, or a page calling another plugin's method.
  | "plugin_timeout"
  | "plugin_unresponsive"
  | "plugin_busy"
  | "plugin_forbidden"
  | "internal_error";

/** JSON-RPC 2.0 error codes, with an app range for reasons JSON-RPC has no code for. */
export const errorCodes: Record<ErrorReason, number> = {
  parse_error: -32700,
  invalid_request: -32600,
  method_not_found: -32601,
  invalid_params: -32602,
  internal_error: -32603,
  unauthorized: -32001,
  keychain_unavailable: -32002,
  not_found: -32003,
  conflict: -32004,
  provider_error: -32005,
  store_error: -32006,
  config_unreadable: -32007,
  plugin_not_found: -32010,
  plugin_rpc_failed: -32011,
  plugin_timeout: -32012,
  plugin_unresponsive: -32013,
  plugin_busy: -32014,
  plugin_forbidden: -32015,
};

export interface RpcErrorData {
  reason: ErrorReason;
  /**
   * The dotted settings key or param path an `invalid_params` error is about; for a `provider_error`
   * of `providers.models`, the provider field the failure points at (`apiKey` or `base_url`).
   */
  key?: string;
  [extra: string]: unknown;
}

export interface RpcErrorObject {
  code: number;
  message: string;
  data: RpcErrorData;
}

/** An error a method handler raises on purpose; its message is shown to the user as is. */
export class RpcError extends Error {
  override readonly name = "RpcError";
  constructor(
    readonly reason: ErrorReason,
    message: string,
    readonly extra: Omit<RpcErrorData, "reason"> = {},
  ) {
    super(message);
  }

  toObject(): RpcErrorObject {
    return {
      code: errorCodes[this.reason],
      message: this.message,
      data: { ...this.extra, reason: this.reason },
    };
  }
}
