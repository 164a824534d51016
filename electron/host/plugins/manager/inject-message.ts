/**
 * `ctx.injectMessage(sessionId, text)` arguments (docs/contract.md §9.3), checked on both sides of the
 * boundary. Bad arguments are the plugin's mistake and reject with a message that says what to
 * fix; a chat that does not exist (any more) is no mistake — chats are deleted at any time — and
 * answers false.
 */

/** The longest message a plugin may inject: the same bound as a person's message. */
export const MAX_INJECTED_TEXT = 1_000_000;

export class PluginInjectError extends Error {
  override readonly name = "PluginInjectError";
  readonly reason = "invalid_params" as const;
}

export function injectMessageProblem(sessionId: unknown, text: unknown): string | null {
  if (typeof sessionId !== "string" || sessionId.length === 0 || sessionId.length > 200) {
    return "ctx.injectMessage(sessionId, text): sessionId must be a chat's id (the sessionId a command, tool or hook received).";
  }
  if (typeof text !== "string") {
    return `ctx.injectMessage(sessionId, text): text must be a string (got ${text === null ? "null" : typeof text}).`;
  }
  if (text.trim() === "")
    return "ctx.injectMessage(sessionId, text): text is empty; write the message to send.";
  if (text.length > MAX_INJECTED_TEXT) {
    return `ctx.injectMessage(sessionId, text): text is ${text.length} characters; at most ${MAX_INJECTED_TEXT} fit.`;
  }
  return null;
}
