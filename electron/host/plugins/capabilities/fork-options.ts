/**
 * `ctx.forkSession`'s arguments (docs/contract.md §7.4), checked before the token is looked at: a bad one is a
 * mistake in the plugin, so it throws PluginLlmInputError with what to fix and spends nothing.
 */
import { PluginLlmInputError } from "../llm/llm-errors.js";

export const MAX_FORK_PROMPT_CHARS = 8192;
export const MIN_FORK_ITERATIONS = 1;
export const MAX_FORK_ITERATIONS = 16;
export const DEFAULT_FORK_ITERATIONS = 8;
export const MAX_FORK_TIMEOUT_S = 1800;

export interface ForkArgs {
  prompt: string;
  tools: string[];
  maxIterations: number;
  /** Absent: the default bound (75 % of the context window). */
  inputBudget?: number;
  task?: string;
  timeoutSeconds: number;
}

const fail = (message: string): never => {
  throw new PluginLlmInputError(`forkSession: ${message}`);
};

export function parseForkArgs(prompt: unknown, rawOptions: unknown): ForkArgs {
  if (typeof prompt !== "string") fail(`prompt must be a string, got ${typeof prompt}.`);
  const text = prompt as string;
  if (!text.trim()) fail("prompt must be a non-empty string.");
  if (text.length > MAX_FORK_PROMPT_CHARS)
    fail(`prompt is ${text.length} characters; the limit is ${MAX_FORK_PROMPT_CHARS}.`);
  if (
    rawOptions !== undefined &&
    rawOptions !== null &&
    (typeof rawOptions !== "object" || Array.isArray(rawOptions))
  )
    fail("options must be an object {tools, maxIterations, inputBudget, task, timeout}.");
  const options = (rawOptions ?? {}) as Record<string, unknown>;
  const known = new Set(["tools", "maxIterations", "inputBudget", "task", "timeout"]);
  const unknown = Object.keys(options).filter((key) => !known.has(key));
  if (unknown.length)
    fail(`unknown option(s) ${unknown.join(", ")}; use tools, maxIterations, inputBudget, task, timeout.`);

  const tools = options.tools ?? [];
  if (!Array.isArray(tools) || tools.some((t) => typeof t !== "string" || !t))
    fail("tools must be a list of tool names (strings).");
  const maxIterations = options.maxIterations ?? DEFAULT_FORK_ITERATIONS;
  if (
    typeof maxIterations !== "number" ||
    !Number.isInteger(maxIterations) ||
    maxIterations < MIN_FORK_ITERATIONS ||
    maxIterations > MAX_FORK_ITERATIONS
  )
    fail(
      `maxIterations must be a whole number from ${MIN_FORK_ITERATIONS} to ${MAX_FORK_ITERATIONS}, got ${String(maxIterations)}.`,
    );
  const inputBudget = options.inputBudget;
  if (
    inputBudget !== undefined &&
    (typeof inputBudget !== "number" || !Number.isInteger(inputBudget) || inputBudget <= 0)
  )
    fail(`inputBudget must be a whole number of tokens above 0, got ${String(inputBudget)}.`);
  const task = options.task;
  if (task !== undefined && (typeof task !== "string" || !task))
    fail("task must be the key of one of this plugin's auxiliary slots.");
  const timeout = options.timeout ?? MAX_FORK_TIMEOUT_S;
  if (
    typeof timeout !== "number" ||
    !Number.isFinite(timeout) ||
    timeout <= 0 ||
    timeout > MAX_FORK_TIMEOUT_S
  )
    fail(
      `timeout must be a number of seconds above 0 and at most ${MAX_FORK_TIMEOUT_S}, got ${String(timeout)}.`,
    );

  return {
    prompt: text,
    tools: [...new Set(tools as string[])],
    maxIterations: maxIterations as number,
    ...(inputBudget !== undefined ? { inputBudget: inputBudget as number } : {}),
    ...(task !== undefined ? { task: task as string } : {}),
    timeoutSeconds: timeout as number,
  };
}
