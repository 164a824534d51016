/**
 * One fork's run (docs/contract.md §7.4) on the shared agent loop (fork-loop.ts), with a driver that
 * keeps the conversation in memory: nothing reaches the transcript. Each request goes to one route
 * (no fallback), wrapped in `pre_auxiliary_call`/`post_auxiliary_call` with `auxTask:
 * "plugin_fork"` (never the turn-scoped API hooks), billed as `plugin_fork:<id>` and charged to the
 * plugin's daily budget. Its aggregate input tokens are bounded: a request that would pass the
 * bound is not sent and the fork ends `budget_exhausted`. Tool calls outside the allowed list are
 * refused at dispatch with a message naming the allowed tools; allowed ones carry
 * `turnOrigin: "plugin_fork:<id>"` through `pre_tool_call` and the handler.
 */
import type { ForkOutcome } from "../../../../plugins/sdk/types.js";
import type { ChatBody, ChatMessage, ToolCall } from "../../llm/chat-request.js";
import type { ChatEngine } from "../../llm/chat-engine.js";
import type { Route } from "../../llm/route.js";
import type { Usage } from "../../llm/usage.js";
import type { HookRegistry } from "../registries/hook-registry.js";
import type { ToolRegistry } from "../registries/tool-registry.js";
import type { ForkLoop, ForkLoopDriver, ForkToolRun } from "./fork-loop.js";

export interface ForkRunDeps {
  engine: Pick<ChatEngine, "stream" | "redact">;
  hooks: HookRegistry;
  tools: ToolRegistry;
  /** The agent loop (the chats'), passed in: sessions stand above the plugin runtime. */
  loop: ForkLoop;
  /** Bills one request's usage to the session and the plugin's day; never throws. */
  charge(usage: Usage): void;
}

export interface ForkRunSpec {
  pluginId: string;
  sessionId: string;
  gatewaySessionKey: string;
  route: Route;
  /** The turn's request with the conversation continued: replayed as is, then extended. */
  body: ChatBody;
  allowedTools: readonly string[];
  maxIterations: number;
  inputBudget: number;
  signal: AbortSignal;
  /** An allowed tool was called (for the handle's `actions`). */
  onAction(name: string): void;
}

export interface ForkRunResult {
  outcome: Exclude<ForkOutcome, "running" | "cancelled" | "timeout" | `refused:${string}`> | "stopped";
  result: string | null;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  error?: string;
}

const bodyTokens = (loop: ForkLoop, body: ChatBody): number =>
  loop.estimateTokens(body.messages) + (body.tools ? Math.ceil(JSON.stringify(body.tools).length / 4) : 0);

export async function runFork(deps: ForkRunDeps, spec: ForkRunSpec): Promise<ForkRunResult> {
  const { pluginId, sessionId, gatewaySessionKey, signal } = spec;
  const turnOrigin = `plugin_fork:${pluginId}`;
  const messages: ChatMessage[] = [...spec.body.messages];
  const totals = { requests: 0, inputTokens: 0, outputTokens: 0 };
  let exhausted = false;
  const hookScope = { sessionId, gatewaySessionKey, auxTask: "plugin_fork", pluginId };

  const driver: ForkLoopDriver = {
    async prepare() {
      if (signal.aborted) return null;
      // The first body is the turn's own object, so its bytes are the turn's; later ones extend it.
      const body: ChatBody = totals.requests === 0 ? spec.body : { ...spec.body, messages: [...messages] };
      if (totals.inputTokens + bodyTokens(deps.loop, body) > spec.inputBudget) {
        exhausted = true;
        return null;
      }
      return body;
    },
    async request(body) {
      await deps.hooks.fire("pre_auxiliary_call", hookScope);
      totals.requests += 1;
      try {
        const outcome = await deps.engine.stream(spec.route, body, { signal });
        totals.inputTokens += outcome.usage.inputTokens || bodyTokens(deps.loop, body);
        totals.outputTokens += outcome.usage.outputTokens;
        deps.charge(outcome.usage);
        await deps.hooks.fire("post_auxiliary_call", { ...hookScope, usage: outcome.usage });
        if (outcome.stopped) return { kind: "stopped", text: outcome.text };
        if (outcome.toolCalls.length) {
          messages.push({ role: "assistant", content: outcome.text || null, tool_calls: outcome.toolCalls });
        }
        return { kind: "ok", text: outcome.text, toolCalls: outcome.toolCalls, route: spec.route };
      } catch (error) {
        // Counted as sent: a failed request still reached the provider (or tried to).
        totals.inputTokens += bodyTokens(deps.loop, body);
        if (signal.aborted) return { kind: "stopped", text: "" };
        return { kind: "error", error: error instanceof Error ? error.message : String(error), text: "" };
      }
    },
    async runTool(call: ToolCall): Promise<ForkToolRun> {
      const name = call.function.name;
      const owner = deps.tools.get(name)?.pluginId;
      if (!spec.allowedTools.includes(name) || owner !== pluginId) {
        const allowed = spec.allowedTools.length ? spec.allowedTools.join(", ") : "none";
        return {
          status: "blocked",
          content: `Error: "${name}" is not allowed in this background run; the tools it may call: ${allowed}.`,
        };
      }
      spec.onAction(name);
      return deps.loop.runTool(call, { sessionId, gatewaySessionKey, signal, turnOrigin });
    },
    recordTool(call, run) {
      messages.push({ role: "tool", content: deps.engine.redact(run.content), tool_call_id: call.id });
    },
  };

  const loop = await deps.loop.run(driver, { maxIterations: spec.maxIterations, signal });
  const base = { ...totals };
  if (exhausted) return { ...base, outcome: "budget_exhausted", result: null };
  switch (loop.status) {
    case "ok":
      return { ...base, outcome: "ok", result: loop.reply || null };
    // The bound on requests is the plugin's own choice: what the fork did stands, without a final text.
    case "iteration_limit":
      return { ...base, outcome: "ok", result: null };
    case "error":
      return { ...base, outcome: "error", result: null, error: loop.error };
    case "stopped":
      return { ...base, outcome: "stopped", result: null };
  }
}
