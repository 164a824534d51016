/**
 * What a fork needs of the agent loop (docs/contract.md §7.4), declared by the plugin runtime that
 * uses it. The loop is the chats' own (sessions/turns/tool-loop.ts, sessions/turns/tool-dispatch.ts): sessions
 * stand above the plugin runtime, so createHost passes it in and the type-checker holds it to
 * these shapes. Likewise the session's background work, which a fork joins.
 */
import type { ChatBody, ChatMessage, ToolCall } from "../../llm/chat-request.js";
import type { Route } from "../../llm/route.js";

/** A tool call's end: `aborted` means the run was stopped while the tool ran. */
export interface ForkToolRun {
  status: "ok" | "error" | "blocked" | "aborted";
  /** What the model reads as the tool message. */
  content: string;
}

/** One model request's end: its text and tool calls, or why it did not answer. */
export type ForkLoopStep =
  | { kind: "ok"; text: string; toolCalls: ToolCall[]; route: Route }
  | { kind: "stopped"; text: string }
  | { kind: "error"; error: string; text: string };

export interface ForkLoopDriver {
  /** The body of the next request; null = stop. */
  prepare(): Promise<ChatBody | null>;
  request(body: ChatBody): Promise<ForkLoopStep>;
  runTool(call: ToolCall): Promise<ForkToolRun>;
  recordTool(call: ToolCall, run: ForkToolRun): void;
}

export type ForkLoopResult =
  | { status: "ok"; reply: string }
  | { status: "stopped"; reply: string }
  | { status: "error"; error: string; reply: string }
  | { status: "iteration_limit"; reply: string };

export interface ForkLoop {
  run(
    driver: ForkLoopDriver,
    options: { maxIterations: number; signal: AbortSignal },
  ): Promise<ForkLoopResult>;
  /** Runs an allowed tool with `pre_tool_call`/`post_tool_call` around it; never throws. */
  runTool(
    call: ToolCall,
    scope: { sessionId: string; gatewaySessionKey: string; signal: AbortSignal; turnOrigin: string },
  ): Promise<ForkToolRun>;
  /** The chats' rough token count of messages, so a fork's budget counts as a turn's does. */
  estimateTokens(messages: readonly ChatMessage[]): number;
}

/** The session's background work a fork registers with (a person's next turn cancels it). */
export interface ForkBackgroundWork {
  register(job: {
    sessionId: string;
    kind: "fork";
    pluginId: string;
    cancel(reason: string): void;
    settled: Promise<unknown>;
  }): string;
}
