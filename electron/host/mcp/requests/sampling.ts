/**
 * A server's sampling request (docs/contract.md §13.4): shown to the person, and once approved
 * run on the built-in auxiliary slot `mcp` with the server's `sampling` limits enforced (model,
 * allowed_models, max_tokens_cap, max_rpm, timeout), billed as `mcp:<id>` to the session whose
 * tool call led to it, and audited in logs/agent.log.
 */
import { randomUUID } from "node:crypto";
import {
  ErrorCode,
  McpError,
  type CreateMessageRequest,
  type CreateMessageResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { Settings } from "../../config/config-schema.js";
import type { ChatEngine } from "../../llm/chat-engine.js";
import type { ChatMessage } from "../../llm/chat-request.js";
import type { Route } from "../../llm/route.js";
import type { Usage } from "../../llm/usage.js";
import type { AgentLog } from "../../logging/agent-log.js";
import { resolveSlot, routeOf } from "../../models/auxiliary-route.js";
import type { AuxiliaryTaskRegistry } from "../../models/auxiliary-tasks.js";
import type { McpSamplingMessage } from "../../rpc/methods/mcp.js";
import type { PendingRequests } from "./pending-requests.js";
import type { McpServerConfig } from "../server-config.js";

export interface SamplingDeps {
  settings: { get(): Settings };
  slots: AuxiliaryTaskRegistry;
  engine: Pick<ChatEngine, "complete">;
  pending: PendingRequests;
  log: AgentLog;
  bill: (sessionId: string, category: string, usage: Usage) => void;
  /** The session whose tool call on this server runs now. */
  sessionOf: (serverId: string) => string | null;
  now?: () => number;
}

const MINUTE_MS = 60_000;

export class SamplingHandler {
  /** Request times per server in the last minute, for `max_rpm`. */
  private readonly recent = new Map<string, number[]>();

  constructor(private readonly deps: SamplingDeps) {}

  async handle(
    config: McpServerConfig,
    params: CreateMessageRequest["params"],
    signal: AbortSignal,
  ): Promise<CreateMessageResult> {
    const now = (this.deps.now ?? Date.now)();
    const times = (this.recent.get(config.id) ?? []).filter((t) => now - t < MINUTE_MS);
    if (times.length >= config.sampling.maxRpm) {
      this.audit(config, null, "rate_limited");
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Sampling limit reached: at most ${config.sampling.maxRpm} requests a minute for this server.`,
      );
    }
    times.push(now);
    this.recent.set(config.id, times);

    const route = this.route(config, params);
    const maxTokens = Math.min(params.maxTokens, config.sampling.maxTokensCap);
    const sessionId = this.deps.sessionOf(config.id);
    const decision = await this.deps.pending.sampling(
      {
        requestId: randomUUID(),
        server: config.id,
        sessionId,
        messages: params.messages.map(toView),
        systemPrompt: params.systemPrompt ?? null,
        maxTokens,
        model: `${route.providerId} · ${route.model}`,
      },
      signal,
      // The person gets as long as for a form (elicitation.timeout); sampling.timeout bounds the model call.
      config.elicitation.timeoutMs,
    );
    if (decision === "deny") {
      this.audit(config, sessionId, "denied");
      throw new McpError(ErrorCode.InvalidRequest, "The user declined the sampling request.");
    }
    const messages: ChatMessage[] = [
      ...(params.systemPrompt ? [{ role: "system" as const, content: params.systemPrompt }] : []),
      ...params.messages.map((m) => ({ role: m.role, content: toView(m).text }) as ChatMessage),
    ];
    const outcome = await this.deps.engine.complete(
      route,
      {
        messages,
        max_tokens: maxTokens,
        ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
      },
      { timeoutMs: config.sampling.timeoutMs, signal },
    );
    if (sessionId) {
      try {
        this.deps.bill(sessionId, `mcp:${config.id}`, outcome.usage);
      } catch {
        // Billing is bookkeeping; the server still gets its answer.
      }
    }
    this.audit(config, sessionId, "answered", route, outcome.usage);
    return {
      role: "assistant",
      content: { type: "text", text: outcome.text },
      model: outcome.model,
      stopReason: outcome.finishReason === "length" ? "maxTokens" : "endTurn",
    };
  }

  /** The `mcp` slot's route; `sampling.model` pins the model, an allowed hint may choose another. */
  private route(config: McpServerConfig, params: CreateMessageRequest["params"]): Route {
    const settings = this.deps.settings.get();
    const route = routeOf(settings, resolveSlot("mcp", settings, this.deps.slots));
    const hinted = (params.modelPreferences?.hints ?? [])
      .map((hint) => hint.name)
      .find((name): name is string => !!name && config.sampling.allowedModels.includes(name));
    const model = hinted ?? (config.sampling.model || route.model);
    return { ...route, model };
  }

  private audit(
    config: McpServerConfig,
    sessionId: string | null,
    outcome: string,
    route?: Route,
    usage?: Usage,
  ): void {
    this.deps.log.write("INFO", "mcp_sampling", {
      server: config.id,
      session: sessionId,
      outcome,
      provider: route?.providerId,
      model: route?.model,
      inputTokens: usage?.inputTokens,
      outputTokens: usage?.outputTokens,
    });
  }
}

function toView(message: CreateMessageRequest["params"]["messages"][number]): McpSamplingMessage {
  const contents = Array.isArray(message.content) ? message.content : [message.content];
  const text = contents
    .map((c) =>
      c.type === "text"
        ? c.text
        : `[${c.type}${"mimeType" in c && c.mimeType ? ` ${String(c.mimeType)}` : ""}]`,
    )
    .join("\n");
  return { role: message.role, text };
}
