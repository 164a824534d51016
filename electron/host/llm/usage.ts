/** Provider usage in the app's shape (docs/contract.md §6.6); the plugin SDK's type is the one definition. */
import type { LlmUsage } from "../../../plugins/sdk/types.js";

export type Usage = LlmUsage;

export const emptyUsage = (): Usage => ({
  inputTokens: 0,
  outputTokens: 0,
  totalTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: null,
});

const num = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** Reads the OpenAI usage object plus the common extensions (OpenRouter's `cost`, Anthropic-style cache writes). */
export function mapUsage(raw: unknown): Usage {
  if (!raw || typeof raw !== "object") return emptyUsage();
  const u = raw as Record<string, unknown>;
  const details = (u.prompt_tokens_details ?? {}) as Record<string, unknown>;
  const inputTokens = num(u.prompt_tokens);
  const outputTokens = num(u.completion_tokens);
  const cost = typeof u.cost === "number" && Number.isFinite(u.cost) ? u.cost : null;
  return {
    inputTokens,
    outputTokens,
    totalTokens: num(u.total_tokens) || inputTokens + outputTokens,
    cacheReadTokens: num(details.cached_tokens) || num(u.cache_read_input_tokens),
    cacheWriteTokens: num(details.cache_write_tokens) || num(u.cache_creation_input_tokens),
    costUsd: cost,
  };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    costUsd: a.costUsd === null && b.costUsd === null ? null : (a.costUsd ?? 0) + (b.costUsd ?? 0),
  };
}
