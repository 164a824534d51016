/** Maps the services' own error classes to RPC errors with stable reasons (SPEC §11). */
import { ConfigUnreadableError, ConfigValidationError } from "./config/config-errors.js";
import { RpcError } from "./rpc/errors.js";
import { InvalidVaultInputError, KeychainUnavailableError } from "./secrets/errors.js";

export function mapServiceError(err: unknown): RpcError | null {
  if (err instanceof ConfigValidationError)
    return new RpcError("invalid_params", err.message, { key: err.key });
  if (err instanceof ConfigUnreadableError) return new RpcError("config_unreadable", err.message);
  if (err instanceof KeychainUnavailableError) return new RpcError("keychain_unavailable", err.message);
  if (err instanceof InvalidVaultInputError) return new RpcError("invalid_params", err.message);
  if (err instanceof Error && err.name === "SessionStoreError")
    return new RpcError("store_error", err.message);
  return null;
}
