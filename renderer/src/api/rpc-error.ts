/**
 * The one error type every client call rejects with, whatever the transport. Screens branch on
 * `reason` (stable, docs/contract.md §11), never on message text; the message is written for people.
 */
import type { ErrorReason, RpcErrorObject } from "../../../electron/host/rpc/errors.js";

/** Host reasons, plus the two the client itself can raise. */
export type ClientErrorReason = ErrorReason | "connection_lost" | "malformed_response";

export class HermesRpcError extends Error {
  override readonly name = "HermesRpcError";
  readonly reason: ClientErrorReason;
  /** The settings key or param an `invalid_params` error is about, when the host named one. */
  readonly key: string | undefined;
  readonly code: number | undefined;

  constructor(reason: ClientErrorReason, message: string, options: { key?: string; code?: number } = {}) {
    super(message);
    this.reason = reason;
    this.key = options.key;
    this.code = options.code;
  }

  static fromErrorObject(error: RpcErrorObject): HermesRpcError {
    const data = (error.data ?? {}) as Partial<RpcErrorObject["data"]>;
    const reason: ClientErrorReason = typeof data.reason === "string" ? data.reason : "internal_error";
    const message =
      typeof error.message === "string" && error.message ? error.message : "The host reported an error.";
    return new HermesRpcError(reason, message, {
      ...(typeof data.key === "string" && data.key ? { key: data.key } : {}),
      ...(typeof error.code === "number" ? { code: error.code } : {}),
    });
  }
}

export const connectionLostError = (method: string): HermesRpcError =>
  new HermesRpcError(
    "connection_lost",
    `Lost the connection to Hermes Desktop before "${method}" finished. It reconnects by itself; try again in a moment.`,
  );

/** Plain words for any failure, for `role="alert"` texts. */
export function describeError(err: unknown): string {
  if (err instanceof HermesRpcError) return err.message;
  if (err instanceof Error && err.message) return err.message;
  return "Something went wrong. Try again.";
}
