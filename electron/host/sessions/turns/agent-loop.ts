/**
 * The chat's agent loop of one turn, on the shared loop of tool-loop.ts: requests built from the
 * transcript, replies streamed into it, tool results written to it. Steers (docs/contract.md §9.2) enter at
 * each step: just before every request, after the tool results.
 */
import type { ChatBody, ChatMessage } from "../../llm/chat-request.js";
import type { Settings } from "../../config/config-schema.js";
import type { Route } from "../../llm/route.js";
import type { ToolRegistry } from "../../plugins/registries/tool-registry.js";
import type { Compactor } from "./compaction.js";
import type { ExternalTools } from "./external-tools.js";
import type { ImageDescriber } from "./image-description.js";
import { runModelStep, type ModelStepDeps } from "./stream-step.js";
import { requestMessages } from "./request-builder.js";
import { runToolCall, toolDefinitions } from "./tool-dispatch.js";
import { runToolLoop, type LoopDriver } from "./tool-loop.js";
import type { TurnStatus } from "./turn-types.js";
import type { PersistMessage } from "./transcript.js";
import type { SessionSnapshot } from "../store/types.js";

export const DEFAULT_MAX_ITERATIONS = 16;

export interface AgentLoopDeps extends ModelStepDeps {
  tools: ToolRegistry;
  /** MCP servers' tools (docs/contract.md §13.3); offered to chat turns only, never inside a fork. */
  external?: ExternalTools;
  /** Summarises the oldest turns when a request would pass 75 % of the context window. */
  compactor?: Compactor;
  /** Describes attached images through the vision slot when the main model is text-only. */
  imageDescriber?: ImageDescriber;
  maxIterations?: number;
}

export interface AgentLoopInput {
  sessionId: string;
  turnId: string;
  gatewaySessionKey: string;
  snapshot: SessionSnapshot;
  routes: readonly Route[];
  signal: AbortSignal;
  /** Moves steers that arrived for this turn into the transcript, where the next request sees them. */
  takeSteers: () => void;
  /** Writes the person's message still owes (its indexing); run with the first reply's write. */
  settleUser?: () => void;
  /** Makes the person's message durable itself, while the first request is in flight (Transcript.announceUser). */
  persistUser?: PersistMessage;
  /** The turn's one read of the settings (the routes come from it too). */
  settings?: Settings;
  /** `plugin_fork:<id>` when the loop runs inside a fork (docs/contract.md §5.2); absent for chat turns. */
  turnOrigin?: string;
}

export interface AgentLoopResult {
  status: TurnStatus;
  error?: string;
  /** The last assistant text of the turn (what `post_llm_call` reports as `reply`). */
  reply: string;
  /** The last request that got an answer: the route that answered and the body it was sent. */
  request?: { route: Route; body: ChatBody };
}

export async function runAgentLoop(deps: AgentLoopDeps, input: AgentLoopInput): Promise<AgentLoopResult> {
  const { sessionId, turnId, gatewaySessionKey, signal } = input;
  const maxIterations = deps.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  const external = input.turnOrigin ? undefined : deps.external;
  const driver: LoopDriver = {
    async prepare() {
      input.takeSteers();
      if (signal.aborted) return null;
      const tools = [...toolDefinitions(deps.tools), ...(external?.definitions() ?? [])];
      const route = input.routes[0];
      const beforeRequest = {
        ...(input.persistUser ? { beforeRequest: input.persistUser } : {}),
        ...(input.settings ? { settings: input.settings } : {}),
      };
      if (deps.imageDescriber && route) {
        await deps.imageDescriber.describePending({
          sessionId,
          gatewaySessionKey,
          route,
          signal,
          ...beforeRequest,
        });
        if (signal.aborted) return null;
      }
      let built: ChatMessage[] | null = null;
      if (deps.compactor && route) {
        built = await deps.compactor.maybeCompact({
          sessionId,
          turnId,
          gatewaySessionKey,
          snapshot: input.snapshot,
          route,
          signal,
          ...beforeRequest,
        });
        if (signal.aborted) return null;
      }
      return {
        messages: built ?? requestMessages(input.snapshot, deps.transcript.records(sessionId)),
        ...(tools.length ? { tools } : {}),
      };
    },
    async request(body) {
      const step = await runModelStep(deps, {
        sessionId,
        turnId,
        gatewaySessionKey,
        routes: input.routes,
        signal,
        ...(input.settleUser ? { settleUser: input.settleUser } : {}),
        ...(input.persistUser ? { whileInFlight: input.persistUser } : {}),
        body,
      });
      const text = step.reply.content;
      if (step.kind === "ok")
        return { kind: "ok", text, toolCalls: step.outcome.toolCalls, route: step.route };
      return step.kind === "error" ? { kind: "error", error: step.error, text } : { kind: "stopped", text };
    },
    runTool: (call) =>
      runToolCall({ tools: deps.tools, hooks: deps.hooks, external }, call, {
        sessionId,
        gatewaySessionKey,
        signal,
        ...(input.turnOrigin ? { turnOrigin: input.turnOrigin } : {}),
      }),
    recordTool(call, run) {
      deps.transcript.append({
        sessionId,
        turnId,
        role: "tool",
        // A tool's result may quote what a provider said; it is stored and shown, so redact it.
        content: deps.engine.redact(run.content),
        meta: {
          toolCallId: call.id,
          toolName: call.function.name,
          toolStatus: run.status,
          ...run.meta,
          ...(run.images?.length
            ? { toolImages: run.images.map(({ mimeType, data }) => ({ mimeType, data })) }
            : {}),
          ...(run.explanation ? { explanation: deps.engine.redact(run.explanation) } : {}),
        },
      });
    },
  };
  const result = await runToolLoop(driver, { maxIterations, signal });
  if (result.status !== "iteration_limit") return result;
  const limit =
    `Stopped after ${maxIterations} rounds of tool calls without a final answer. ` +
    "Send a message to let the agent continue, or ask for something smaller.";
  deps.transcript.append({
    sessionId,
    turnId,
    role: "notice",
    content: limit,
    meta: { notice: "iteration_limit" },
  });
  return { status: "error", error: limit, reply: result.reply };
}
