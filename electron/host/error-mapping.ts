/**
 * The one place where the services' own errors become RPC errors with stable reasons (the
 * `error.data.reason` of docs/rpc-reference.md). Services throw their own classes and never build
 * RPC errors; an error not listed here is a bug and answers `internal_error`.
 */
import { ConfigUnreadableError, ConfigValidationError } from "./config/config-errors.js";
import { HermesImportError, NothingToRestoreError } from "./config/hermes-import/import-errors.js";
import { ModelInputError, ProviderAnswerError, ProviderNotFoundError } from "./models/model-errors.js";
import { ConsentInputError } from "./plugins/capabilities/consent.js";
import { PluginNotFoundError } from "./plugins/manager/plugin-manager.js";
import { RpcError } from "./rpc/errors.js";
import { InvalidVaultInputError, KeyNotSavedError, KeychainUnavailableError } from "./secrets/errors.js";
import {
  SessionBusyError,
  SessionInputError,
  SessionNotFoundError,
} from "./sessions/store/session-errors.js";
import { SessionStoreError } from "./sessions/store/session-store-error.js";
import { BackupNotFoundError } from "./sessions/recovery/store-backups.js";

export function mapServiceError(err: unknown): RpcError | null {
  if (err instanceof ConfigValidationError)
    return new RpcError("invalid_params", err.message, { key: err.key });
  if (err instanceof ConfigUnreadableError) return new RpcError("config_unreadable", err.message);
  if (err instanceof HermesImportError)
    return new RpcError("invalid_params", err.message, err.key ? { key: err.key } : {});
  if (err instanceof NothingToRestoreError) return new RpcError("not_found", err.message);
  if (err instanceof KeychainUnavailableError || err instanceof KeyNotSavedError)
    return new RpcError("keychain_unavailable", err.message);
  if (err instanceof InvalidVaultInputError) return new RpcError("invalid_params", err.message);
  if (err instanceof ModelInputError) return new RpcError("invalid_params", err.message, { key: err.key });
  if (err instanceof ProviderNotFoundError) return new RpcError("not_found", err.message);
  if (err instanceof ProviderAnswerError)
    return new RpcError("provider_error", err.message, err.key ? { key: err.key } : {});
  if (err instanceof ConsentInputError) return new RpcError("invalid_params", err.message);
  if (err instanceof PluginNotFoundError) return new RpcError("plugin_not_found", err.message);
  if (err instanceof SessionNotFoundError) return new RpcError("not_found", err.message);
  if (err instanceof BackupNotFoundError) return new RpcError("not_found", err.message);
  if (err instanceof SessionStoreError) {
    return err.reason === "not_found"
      ? new RpcError("not_found", err.message)
      : new RpcError("store_error", err.message, { store: err.reason });
  }
  if (err instanceof SessionBusyError) return new RpcError("conflict", err.message);
  if (err instanceof SessionInputError) return new RpcError("invalid_params", err.message);
  return null;
}
