/**
 * The session handlers of the RPC method table. The calling connection is the session's
 * `gatewaySessionKey` for the hooks a call fires (SPEC §5.3). Service errors become stable
 * reasons here: a missing session is `not_found`, a busy one `conflict`, bad input `invalid_params`.
 */
import { RpcError } from "../rpc/errors.js";
import type { HandlerTable } from "../rpc/router.js";
import { SessionBusyError, SessionInputError, SessionNotFoundError } from "./session-errors.js";
import type { SessionService } from "./session-service.js";
import { SessionStoreError } from "./session-store-error.js";

type SessionHandlers = Pick<
  HandlerTable,
  | "session.create"
  | "session.list"
  | "session.messages"
  | "session.send"
  | "session.stop"
  | "session.delete"
  | "session.usage"
  | "session.get"
  | "session.rename"
  | "session.regenerate"
  | "session.pin"
  | "session.setModel"
  | "session.setSystemPrompt"
  | "session.edit"
  | "session.switchVersion"
  | "session.export"
  | "session.import"
  | "memory.review.accept"
  | "memory.review.dismiss"
>;

export function sessionHandlers(service: SessionService): SessionHandlers {
  return {
    "session.create": async (params, ctx) => rpc(() => service.create(params, ctx.connectionId)),
    "session.list": async ({ query }) => rpc(() => ({ sessions: service.list(query) })),
    "session.messages": async ({ sessionId }) => rpc(() => ({ messages: service.messages(sessionId) })),
    "session.send": async ({ sessionId, text, mode, images }, ctx) =>
      rpc(() => service.send(sessionId, text, mode, ctx.connectionId, images)),
    "session.stop": async ({ sessionId }) => rpc(() => (service.stop(sessionId), {})),
    "session.delete": async ({ sessionId }, ctx) => {
      await rpcAsync(() => service.delete(sessionId, ctx.connectionId));
      return {};
    },
    "session.usage": async ({ sessionId }) => rpc(() => ({ rows: service.usage(sessionId) })),
    "session.get": async ({ sessionId }) => rpc(() => service.get(sessionId)),
    "session.rename": async ({ sessionId, title }) => rpc(() => (service.rename(sessionId, title), {})),
    "session.pin": async ({ sessionId, pinned }) => rpc(() => (service.setPinned(sessionId, pinned), {})),
    "session.regenerate": async ({ sessionId }, ctx) =>
      rpc(() => service.regenerate(sessionId, ctx.connectionId)),
    "session.setModel": async ({ sessionId, provider, model }) =>
      rpc(() => ({ model: service.overrides.setModel(sessionId, provider, model) })),
    "session.edit": async ({ sessionId, messageId, text }) =>
      rpc(() => service.edits.edit(sessionId, messageId, text)),
    "session.switchVersion": async ({ sessionId, group, version }) =>
      rpc(() => (service.edits.switchVersion(sessionId, group, version), {})),
    "session.export": async ({ sessionId, format }) => rpc(() => service.files.export(sessionId, format)),
    "session.import": async ({ content }) => rpc(() => service.files.import(content)),
    "session.setSystemPrompt": async ({ sessionId, prompt }) =>
      rpc(() => service.overrides.setSystemPrompt(sessionId, prompt)),
    "memory.review.accept": async ({ sessionId, messageId, additions }) =>
      rpc(() => service.review.accept(sessionId, messageId, additions)),
    "memory.review.dismiss": async ({ sessionId, messageId }) =>
      rpc(() => (service.review.dismiss(sessionId, messageId), {})),
  };
}

function rpc<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw toRpcError(error);
  }
}

async function rpcAsync<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toRpcError(error);
  }
}

function toRpcError(error: unknown): unknown {
  if (error instanceof SessionNotFoundError) return new RpcError("not_found", error.message);
  if (error instanceof SessionStoreError && error.reason === "not_found") {
    return new RpcError("not_found", error.message);
  }
  if (error instanceof SessionStoreError)
    return new RpcError("store_error", error.message, { store: error.reason });
  if (error instanceof SessionBusyError) return new RpcError("conflict", error.message);
  if (error instanceof SessionInputError) return new RpcError("invalid_params", error.message);
  if (error instanceof RangeError) return new RpcError("invalid_params", error.message);
  return error;
}
