/**
 * Runs one tool call the model asked for (docs/contract.md §9.1, §5.3): the `pre_tool_call` gate, the plugin's
 * handler, the `post_tool_call` hook. Every failure becomes the tool message's text, so the model
 * reads what went wrong and can recover; nothing here throws.
 */
import type { ToolCall, ToolDefinition } from "../../llm/chat-request.js";
import type { HookRegistry } from "../../plugins/registries/hook-registry.js";
import type { ToolRegistry } from "../../plugins/registries/tool-registry.js";
import type { ExternalTools } from "./external-tools.js";
import type { ToolResultImage } from "../input/image-attachments.js";
import type { JsonValue } from "../store/types.js";

/** `aborted`: the turn was stopped while the tool ran; nothing is recorded for it. */
export type ToolRunStatus = "ok" | "error" | "blocked" | "aborted";

export interface ToolRun {
  status: ToolRunStatus;
  /** What the model reads as the tool message. */
  content: string;
  /** A `post_tool_call` hook's one-sentence explanation, shown under the call. */
  explanation?: string;
  /** More facts for the tool message's meta (an MCP call's state and links). */
  meta?: Record<string, JsonValue>;
  /** The result's images (an MCP tool's image content), for the card and the model. */
  images?: ToolResultImage[];
}

export interface ToolScope {
  sessionId: string;
  gatewaySessionKey: string;
  signal: AbortSignal;
  /** `plugin_fork:<id>` inside a fork; absent for chat turns (docs/contract.md §5.2). */
  turnOrigin?: string;
}

export function toolDefinitions(tools: ToolRegistry): ToolDefinition[] {
  return tools.list().map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

export async function runToolCall(
  /** `external`: the chat's MCP tools; absent in a fork, which never reaches them. */
  deps: { tools: ToolRegistry; hooks: HookRegistry; external?: ExternalTools | undefined },
  call: ToolCall,
  scope: ToolScope,
): Promise<ToolRun> {
  const name = call.function.name;
  const tool = deps.tools.get(name);
  if (!tool && deps.external?.owns(name) && !scope.turnOrigin) {
    return runExternalToolCall(deps.external, deps.hooks, call, scope);
  }
  if (!tool) {
    const known = deps.tools.list().map((t) => t.name);
    return fail(`Error: there is no tool named "${name}". Available tools: ${known.join(", ") || "none"}.`);
  }
  let args: unknown;
  try {
    args = call.function.arguments.trim() ? JSON.parse(call.function.arguments) : {};
  } catch {
    return fail(`Error: the arguments for ${name} are not valid JSON; send them again as a JSON object.`);
  }
  const hookScope = { sessionId: scope.sessionId, gatewaySessionKey: scope.gatewaySessionKey };
  // `turnOrigin` is always a key of the payload (docs/contract.md §5.3); its value is absent outside a fork.
  const gate = await deps.hooks.gateTool({
    ...hookScope,
    toolName: name,
    args,
    turnOrigin: scope.turnOrigin,
  });
  if (gate.blocked) {
    return {
      status: "blocked",
      content: `Error: the tool call was blocked by plugin '${gate.pluginId}': ${gate.reason}`,
    };
  }
  let result: unknown;
  let status: ToolRunStatus = "ok";
  let content: string;
  try {
    result = await untilAborted(
      Promise.resolve().then(() =>
        tool.handler(args, {
          sessionId: scope.sessionId,
          ...(scope.turnOrigin ? { turnOrigin: scope.turnOrigin } : {}),
        }),
      ),
      scope.signal,
    );
    // Handlers report failures as `{error: "…"}` (the plugin SDK's documented way).
    if (isReportedFailure(result)) status = "error";
    content = stringify(result);
  } catch (error) {
    if (error instanceof ToolAbortedError) return { status: "aborted", content: "" };
    status = "error";
    const message = error instanceof Error ? error.message : String(error);
    // docs/contract.md §5.4: a plugin that did not answer names why (`plugin_timeout`, `plugin_unresponsive`).
    const reason = (error as { reason?: unknown } | null)?.reason;
    result = typeof reason === "string" ? { error: message, reason } : { error: message };
    content = typeof reason === "string" ? `Error (${reason}): ${message}` : `Error: ${message}`;
  }
  const explanation = await firePostToolCall(deps.hooks, { ...hookScope, toolName: name, args, result });
  return { status, content, ...(explanation ? { explanation } : {}) };
}

/** An MCP tool: the same `pre_tool_call` gate, then the MCP client's own path (approval, progress, timeout). */
async function runExternalToolCall(
  external: ExternalTools,
  hooks: HookRegistry,
  call: ToolCall,
  scope: ToolScope,
): Promise<ToolRun> {
  const name = call.function.name;
  let args: unknown = {};
  try {
    args = call.function.arguments.trim() ? JSON.parse(call.function.arguments) : {};
  } catch {
    // The MCP path answers bad JSON itself; the gate sees no arguments.
  }
  const gate = await hooks.gateTool({
    sessionId: scope.sessionId,
    gatewaySessionKey: scope.gatewaySessionKey,
    toolName: name,
    args,
    turnOrigin: scope.turnOrigin,
  });
  if (gate.blocked) {
    return {
      status: "blocked",
      content: `Error: the tool call was blocked by plugin '${gate.pluginId}': ${gate.reason}`,
    };
  }
  const run = await external.run(call, {
    sessionId: scope.sessionId,
    gatewaySessionKey: scope.gatewaySessionKey,
    signal: scope.signal,
  });
  // "After a tool ran" (§5.3) holds for MCP tools too; a refused or stopped call never ran.
  if (run.status !== "ok" && run.status !== "error") return run;
  const explanation = await firePostToolCall(hooks, {
    sessionId: scope.sessionId,
    gatewaySessionKey: scope.gatewaySessionKey,
    toolName: name,
    args,
    result: run.status === "error" ? { error: run.content } : run.content,
  });
  return explanation ? { ...run, explanation } : run;
}

/** Fires `post_tool_call`; the first hook's one-sentence `explanation` is shown under the call. */
async function firePostToolCall(
  hooks: HookRegistry,
  payload: { sessionId: string; gatewaySessionKey: string; toolName: string; args: unknown; result: unknown },
): Promise<string | undefined> {
  let explanation: string | undefined;
  for (const outcome of await hooks.fire("post_tool_call", payload)) {
    const value = outcome.status === "ok" ? (outcome.value as { explanation?: unknown } | null) : null;
    if (
      value &&
      typeof value === "object" &&
      typeof value.explanation === "string" &&
      value.explanation.trim()
    ) {
      explanation ??= value.explanation.trim();
    }
  }
  return explanation;
}

function isReportedFailure(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && typeof (value as { error?: unknown }).error === "string"
  );
}

function fail(content: string): ToolRun {
  return { status: "error", content };
}

function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

class ToolAbortedError extends Error {
  override readonly name = "ToolAbortedError";
  constructor() {
    super("the turn was stopped before the tool finished");
  }
}

/** A stop must not wait for a slow tool; the handler's late result is ignored. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new ToolAbortedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ToolAbortedError());
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => (signal.removeEventListener("abort", onAbort), resolve(value)),
      (error: unknown) => (signal.removeEventListener("abort", onAbort), reject(error)),
    );
  });
}
