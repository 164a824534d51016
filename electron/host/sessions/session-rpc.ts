/**
 * The session handlers of the RPC method table. The calling connection is the session's
 * `gatewaySessionKey` for the hooks a call fires (docs/contract.md §5.3). The service throws its own errors
 * (session-errors.ts, SessionStoreError); `error-mapping.ts` alone turns them into reasons.
 */
import type { HandlerTable } from "../rpc/router.js";
import type { SessionService } from "./session-service.js";

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
    "session.create": async (params, ctx) => service.create(params, ctx.connectionId),
    "session.list": async ({ query }) => ({ sessions: service.list(query) }),
    "session.messages": async ({ sessionId }) => ({ messages: service.messages(sessionId) }),
    "session.send": async ({ sessionId, text, mode, images }, ctx) =>
      service.send(sessionId, text, mode, ctx.connectionId, images),
    "session.stop": async ({ sessionId }) => (service.stop(sessionId), {}),
    "session.delete": async ({ sessionId }, ctx) => {
      await service.delete(sessionId, ctx.connectionId);
      return {};
    },
    "session.usage": async ({ sessionId }) => ({ rows: service.usage(sessionId) }),
    "session.get": async ({ sessionId }) => service.get(sessionId),
    "session.rename": async ({ sessionId, title }) => (service.rename(sessionId, title), {}),
    "session.pin": async ({ sessionId, pinned }) => (service.setPinned(sessionId, pinned), {}),
    "session.regenerate": async ({ sessionId }, ctx) => service.regenerate(sessionId, ctx.connectionId),
    "session.setModel": async ({ sessionId, provider, model }) => ({
      model: service.overrides.setModel(sessionId, provider, model),
    }),
    "session.edit": async ({ sessionId, messageId, text }) => service.edits.edit(sessionId, messageId, text),
    "session.switchVersion": async ({ sessionId, group, version }) => (
      service.edits.switchVersion(sessionId, group, version),
      {}
    ),
    "session.export": async ({ sessionId, format }) => service.files.export(sessionId, format),
    "session.import": async ({ content }) => service.files.import(content),
    "session.setSystemPrompt": async ({ sessionId, prompt }) =>
      service.overrides.setSystemPrompt(sessionId, prompt),
    "memory.review.accept": async ({ sessionId, messageId, additions }) =>
      service.review.accept(sessionId, messageId, additions),
    "memory.review.dismiss": async ({ sessionId, messageId }) => (
      service.review.dismiss(sessionId, messageId),
      {}
    ),
  };
}
