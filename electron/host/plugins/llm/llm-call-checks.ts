/**
 * Checks of the arguments every `ctx.llm` call takes (docs/contract.md §6.6): a bad one is a
 * PluginLlmInputError, raised before anything is sent (and audited as refused).
 */
import type { LlmCallOptions } from "../../../../plugins/sdk/types.js";
import type { ChatMessage } from "../../llm/chat-request.js";
import { PluginLlmInputError } from "./llm-errors.js";

/** A plugin may pass anything; a missing or non-object argument reads as empty, then fails its checks. */
export const asParams = <P>(params: unknown): Partial<P> =>
  (typeof params === "object" && params !== null ? params : {}) as Partial<P>;

/** Request-shaping arguments are never gated, but they must make sense. */
export function checkShaping(params: Partial<LlmCallOptions>): void {
  const num = (value: unknown, name: string, ok: (n: number) => boolean) => {
    if (value !== undefined && (typeof value !== "number" || !Number.isFinite(value) || !ok(value))) {
      throw new PluginLlmInputError(`ctx.llm: "${name}" is out of range (got ${String(value)})`);
    }
  };
  num(params.timeout, "timeout", (n) => n > 0);
  num(params.temperature, "temperature", (n) => n >= 0);
  num(params.maxTokens, "maxTokens", (n) => Number.isInteger(n) && n > 0);
  if (params.purpose !== undefined && typeof params.purpose !== "string") {
    throw new PluginLlmInputError('ctx.llm: "purpose" must be a string');
  }
}

export function checkMessages(messages: unknown): ChatMessage[] {
  const roles = ["system", "user", "assistant", "tool"];
  const valid =
    Array.isArray(messages) &&
    messages.length > 0 &&
    messages.every(
      (m) => typeof m === "object" && m !== null && roles.includes((m as { role?: string }).role ?? ""),
    );
  if (!valid) {
    throw new PluginLlmInputError(
      'ctx.llm.complete needs messages: a non-empty list of {role: "system"|"user"|"assistant"|"tool", content}.',
    );
  }
  return messages as ChatMessage[];
}
