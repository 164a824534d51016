/**
 * The shape of every agent loop (docs/contract.md §9.1, §7.4): ask the model, run the tools it calls, feed the
 * results back, and repeat until it answers without tools, is stopped, fails, or reaches the
 * iteration bound. Where messages come from and go to is the driver's: the chat's loop reads and
 * writes the transcript (agent-loop.ts), a fork keeps its conversation in memory and writes
 * nothing (plugins/capabilities/fork-run.ts).
 */
import type { ChatBody, ToolCall } from "../../llm/chat-request.js";
import type { Route } from "../../llm/route.js";
import type { ToolRun } from "./tool-dispatch.js";

/** One model request's end: its text and tool calls, or why it did not answer. */
export type LoopStep =
  | { kind: "ok"; text: string; toolCalls: ToolCall[]; route: Route }
  | { kind: "stopped"; text: string }
  | { kind: "error"; error: string; text: string };

export interface LoopDriver {
  /** The body of the next request, after whatever must happen first; null = stop (aborted). */
  prepare(): Promise<ChatBody | null>;
  request(body: ChatBody): Promise<LoopStep>;
  runTool(call: ToolCall): Promise<ToolRun>;
  /** Keeps a tool's result where the next request reads it. */
  recordTool(call: ToolCall, run: ToolRun): void;
}

export type LoopResult =
  | { status: "ok"; reply: string; request: { route: Route; body: ChatBody } }
  | { status: "stopped"; reply: string }
  | { status: "error"; error: string; reply: string }
  /** `maxIterations` requests each asked for tools: no final answer. */
  | { status: "iteration_limit"; reply: string };

export async function runToolLoop(
  driver: LoopDriver,
  options: { maxIterations: number; signal: AbortSignal },
): Promise<LoopResult> {
  const { signal } = options;
  let reply = "";
  for (let iteration = 0; iteration < options.maxIterations; iteration++) {
    const body = await driver.prepare();
    if (body === null || signal.aborted) return { status: "stopped", reply };
    const step = await driver.request(body);
    reply = step.text || reply;
    if (step.kind === "stopped") return { status: "stopped", reply };
    if (step.kind === "error") return { status: "error", error: step.error, reply };
    if (step.toolCalls.length === 0) return { status: "ok", reply, request: { route: step.route, body } };
    for (const call of step.toolCalls) {
      if (signal.aborted) break;
      const run = await driver.runTool(call);
      // A call cut short by a stop gets no tool message: the request builder drops it.
      if (run.status === "aborted") break;
      driver.recordTool(call, run);
    }
    if (signal.aborted) return { status: "stopped", reply };
  }
  return { status: "iteration_limit", reply };
}
