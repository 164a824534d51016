/**
 * `ctx.sideQuestion(token, prompt, {timeout})` (docs/contract.md §7.3): asks the session's own agent one
 * question after a turn. The request is the turn's last request, byte for byte (same route, same
 * body: system prompt, tools, messages, sampling), plus one user message, so the provider's prompt
 * cache is warm. No tool runs (tool calls in the reply are dropped), nothing is written to the
 * transcript, no retry, no fallback. Answers the reply text, or null when refused or failed.
 *
 * Bad arguments (a prompt that is not a non-empty string of at most 4096 characters, a timeout that
 * is not a positive number) reject with PluginLlmInputError before the token is touched, so the
 * plugin learns what to fix; a spent daily budget rejects with PluginLlmBudgetError, also without
 * spending it. Everything else answers null, and once the capability and the token checked out
 * the token is spent whatever happens.
 */
import type { SideQuestionOptions } from "../../../../plugins/sdk/types.js";
import type { Clock, TimerHandle } from "../../clock.js";
import type { ChatEngine } from "../../llm/chat-engine.js";
import type { ChatBody } from "../../llm/chat-request.js";
import type { Route } from "../../llm/route.js";
import { emptyUsage, type Usage } from "../../llm/usage.js";
import type { AgentLog } from "../../logging/agent-log.js";
import type { HookRegistry } from "../registries/hook-registry.js";
import { PluginLlmInputError } from "../llm/llm-errors.js";
import type { PluginBudgets } from "../budgets/plugin-budget.js";
import { routeIdentity, sameRoute, type Lease, type SideQuestionLeases } from "./side-question-lease.js";

export const MAX_PROMPT_CHARS = 4096;
export const DEFAULT_TIMEOUT_S = 15;
export const MAX_TIMEOUT_S = 60;
export const SIDE_QUESTION_TASK = "plugin_side_question";

export interface SideQuestionDeps {
  leases: SideQuestionLeases;
  engine: Pick<ChatEngine, "stream">;
  hooks: Pick<HookRegistry, "fire">;
  budgets: Pick<PluginBudgets, "check" | "spend">;
  clock: Clock;
  log: AgentLog;
  /** The route the session's next turn would take now; null when the session is gone. */
  currentRoute(sessionId: string): Route | null;
  /** Bills usage to the session (`plugin_side_question:<id>`). */
  bill(sessionId: string, category: string, usage: Usage): void;
}

/** The prompt as sent, or a PluginLlmInputError saying what is wrong with it. */
export function checkPrompt(prompt: unknown): string {
  if (typeof prompt !== "string") {
    throw new PluginLlmInputError(`ctx.sideQuestion: prompt must be a string, not ${describeType(prompt)}.`);
  }
  if (prompt.trim() === "") throw new PluginLlmInputError("ctx.sideQuestion: prompt needs non-empty text.");
  if (prompt.length > MAX_PROMPT_CHARS) {
    throw new PluginLlmInputError(
      `ctx.sideQuestion: prompt is ${prompt.length} characters; keep it to at most ${MAX_PROMPT_CHARS}.`,
    );
  }
  return prompt;
}

/** Seconds: default 15, capped at 60; anything but a positive number is refused. */
export function checkTimeout(options: unknown): number {
  if (options === undefined || options === null) return DEFAULT_TIMEOUT_S;
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new PluginLlmInputError("ctx.sideQuestion: options must be an object such as {timeout: 15}.");
  }
  const timeout = (options as SideQuestionOptions).timeout;
  if (timeout === undefined) return DEFAULT_TIMEOUT_S;
  if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0) {
    throw new PluginLlmInputError(
      `ctx.sideQuestion: timeout is in seconds, a positive number up to ${MAX_TIMEOUT_S} (got ${String(timeout)}).`,
    );
  }
  return Math.min(timeout, MAX_TIMEOUT_S);
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : `a ${typeof value}`;
}

/** The turn's body with one more user message; every other byte is the turn's. */
export function replayBody(turn: Readonly<ChatBody>, prompt: string): ChatBody {
  return { ...turn, messages: [...turn.messages, { role: "user", content: prompt }] };
}

type Outcome = { text: string | null; usage: Usage; reason: string };

export class SideQuestions {
  constructor(private readonly deps: SideQuestionDeps) {}

  async ask(pluginId: string, token: unknown, prompt: unknown, options: unknown): Promise<string | null> {
    const text = checkPrompt(prompt);
    const timeoutS = checkTimeout(options);
    const { leases, budgets } = this.deps;
    const peeked = leases.peek(token, pluginId, "llm.side_question");
    if (!peeked.ok) return this.refused(pluginId, peeked.reason);
    budgets.check(pluginId);
    const spent = leases.spend(token, pluginId, "llm.side_question");
    if (!spent.ok) return this.refused(pluginId, spent.reason);
    const lease = spent.lease;
    const current = this.deps.currentRoute(lease.sessionId);
    if (!current || !sameRoute(routeIdentity(current), lease.turnRoute)) {
      return this.refused(pluginId, current ? "model_changed" : "session_gone");
    }
    const outcome = await this.run(pluginId, lease, text, timeoutS * 1000);
    this.deps.log.write("INFO", "plugin_side_question", {
      plugin: pluginId,
      provider: lease.request.route.providerId,
      model: lease.request.route.model,
      input_tokens: outcome.usage.inputTokens,
      output_tokens: outcome.usage.outputTokens,
      outcome: outcome.text === null ? outcome.reason : "ok",
    });
    return outcome.text;
  }

  private refused(pluginId: string, reason: string): null {
    this.deps.log.write("INFO", "plugin_side_question", { plugin: pluginId, outcome: `refused:${reason}` });
    return null;
  }

  /** The request under one deadline that covers the hooks too; never throws. */
  private async run(pluginId: string, lease: Lease, prompt: string, timeoutMs: number): Promise<Outcome> {
    const { clock, hooks } = this.deps;
    const abort = new AbortController();
    let timer: TimerHandle | undefined;
    const deadline = new Promise<Outcome>((resolve) => {
      timer = clock.setTimeout(() => {
        abort.abort();
        resolve({ text: null, usage: emptyUsage(), reason: "timeout" });
      }, timeoutMs);
    });
    const scope = {
      sessionId: lease.sessionId,
      gatewaySessionKey: lease.gatewaySessionKey,
      auxTask: SIDE_QUESTION_TASK,
      pluginId,
    };
    const request = (async (): Promise<Outcome> => {
      await hooks.fire("pre_auxiliary_call", scope);
      if (abort.signal.aborted) return { text: null, usage: emptyUsage(), reason: "timeout" };
      let usage = emptyUsage();
      let outcome: Outcome;
      try {
        const reply = await this.deps.engine.stream(
          lease.request.route,
          replayBody(lease.request.body, prompt),
          {
            signal: abort.signal,
            timeoutMs,
          },
        );
        usage = reply.usage;
        const text = reply.text.trim();
        outcome = reply.stopped
          ? { text: null, usage, reason: "timeout" }
          : { text: text === "" ? null : text, usage, reason: "empty_reply" };
      } catch {
        outcome = { text: null, usage, reason: "provider_error" };
      }
      this.account(pluginId, lease.sessionId, usage);
      await hooks.fire("post_auxiliary_call", { ...scope, usage });
      return outcome;
    })();
    try {
      return await Promise.race([request, deadline]);
    } finally {
      if (timer) clock.clearTimeout(timer);
    }
  }

  private account(pluginId: string, sessionId: string, usage: Usage): void {
    this.deps.budgets.spend(pluginId, usage.inputTokens + usage.outputTokens);
    try {
      this.deps.bill(sessionId, `${SIDE_QUESTION_TASK}:${pluginId}`, usage);
    } catch {
      // Billing is bookkeeping; the plugin still gets its answer.
    }
  }
}
