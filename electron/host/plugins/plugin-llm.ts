/**
 * `ctx.llm` (SPEC §6.6): a plugin's model calls, on the user's route, behind the trust gate.
 * Every call is audited (SPEC §6.7), refused ones too; usage is billed to the session the call
 * names as `plugin_llm:<id>`. Keys stay in the engine: nothing here hands one to the plugin.
 */
import { Ajv, type ValidateFunction } from "ajv";
import type {
  CompleteParams,
  CompleteResult,
  CompleteStructuredParams,
  LlmAudit,
  LlmCallOptions,
  PluginLlm,
  StructuredResult,
} from "../../../plugins/sdk/types.js";
import type { Settings, SettingsDocument } from "../config/config-schema.js";
import type { ChatBody, ChatMessage } from "../llm/chat-types.js";
import type { ChatEngine, ChatOutcome } from "../llm/chat-engine.js";
import { runWithFallback } from "../llm/fallback.js";
import { fallbackRoutes, mainRoute, routeFor, type Route } from "../llm/route.js";
import type { Usage } from "../llm/usage.js";
import type { AgentLog } from "../logging/agent-log.js";
import { parseJsonReply } from "./json-reply.js";
import { PluginLlmInputError, PluginLlmSchemaError, PluginLlmTrustError } from "./llm-errors.js";
import { writeLlmAudit } from "./plugin-audit.js";
import { buildStructuredRequest } from "./structured-request.js";
import { checkLlmTrust, noOwnSlots, type GateDecision, type OwnSlotLookup } from "./trust-gate.js";

export type BillUsage = (sessionId: string, category: string, usage: Usage) => void;

export interface PluginLlmDeps {
  settings: { view(): { settings: Settings; document: Readonly<SettingsDocument> } };
  engine: Pick<ChatEngine, "complete">;
  log: AgentLog;
  /** Records usage on a chat session; failures are logged, never raised to the plugin. */
  billUsage?: BillUsage;
  /** Auxiliary slots a plugin registered itself (a later issue); none until then. */
  ownsSlot?: OwnSlotLookup;
}

/** Default for built-in auxiliary slots (SPEC §6.2: `timeout` default 30 s). */
const AUX_DEFAULT_TIMEOUT_S = 30;
const MAX_CACHED_SCHEMAS = 64;

interface Shaped {
  messages: ChatMessage[];
  tools?: unknown;
  toolChoice?: unknown;
  responseFormat?: Record<string, unknown>;
  schemaName: string | null;
}

function checkShaping(params: LlmCallOptions): void {
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

function checkMessages(messages: unknown): ChatMessage[] {
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

export class PluginLlmService {
  private readonly ajv = new Ajv({ allErrors: true, strict: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly deps: PluginLlmDeps) {}

  /** The `ctx.llm` object of one plugin: plain closures, no path back to the host's services. */
  forPlugin(pluginId: string, assertActive: () => void = () => undefined): PluginLlm {
    return Object.freeze({
      complete: async (params: CompleteParams) => {
        assertActive();
        return this.complete(pluginId, params);
      },
      completeStructured: async (params: CompleteStructuredParams) => {
        assertActive();
        return this.completeStructured(pluginId, params);
      },
    });
  }

  async complete(pluginId: string, params: CompleteParams): Promise<CompleteResult> {
    const { result } = await this.run(pluginId, params ?? ({} as CompleteParams), () => ({
      messages: checkMessages(params?.messages),
      tools: params.tools,
      toolChoice: params.toolChoice,
      schemaName: null,
    }));
    return result;
  }

  async completeStructured(pluginId: string, params: CompleteStructuredParams): Promise<StructuredResult> {
    let wantsJson = false;
    let validate: ValidateFunction | null = null;
    const { result, outcome } = await this.run(
      pluginId,
      params ?? ({} as CompleteStructuredParams),
      () => {
        const request = buildStructuredRequest(params ?? ({} as CompleteStructuredParams));
        wantsJson = request.wantsJson;
        if (params.jsonSchema) validate = this.validator(params.jsonSchema);
        return {
          messages: request.messages as ChatMessage[],
          responseFormat: request.responseFormat,
          schemaName: params.schemaName ?? null,
        };
      },
      (text) => this.checkReply(text, validate),
    );
    const reply = wantsJson ? parseJsonReply(outcome.text) : { ok: false as const };
    return { ...result, parsed: reply.ok ? reply.value : null, contentType: reply.ok ? "json" : "text" };
  }

  private validator(schema: Record<string, unknown>): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      try {
        validate = this.ajv.compile(schema);
      } catch (error) {
        throw new PluginLlmInputError(
          `ctx.llm.completeStructured: jsonSchema is not a valid JSON Schema (${error instanceof Error ? error.message : String(error)}).`,
        );
      }
      if (this.validators.size >= MAX_CACHED_SCHEMAS) this.validators.clear();
      this.validators.set(key, validate);
    }
    return validate;
  }

  /** Runs after the reply arrived and before it is returned: a JSON reply must match the schema. */
  private checkReply(text: string, validate: ValidateFunction | null): void {
    if (!validate) return;
    const reply = parseJsonReply(text);
    if (reply.ok && !validate(reply.value)) {
      const detail = this.ajv.errorsText(validate.errors, { dataVar: "reply" });
      throw new PluginLlmSchemaError(
        `The model's JSON reply did not match schema: ${detail}`,
        reply.value,
        text,
      );
    }
  }

  private routesFor(settings: Settings, decision: GateDecision): Route[] {
    const main = mainRoute(settings);
    const route: Route = decision.providerId
      ? routeFor(settings, decision.providerId, decision.model ?? main.model)
      : { ...main, model: decision.model ?? main.model };
    if (decision.profile) route.profile = decision.profile;
    // The user's fallback chain belongs to the main provider; a plugin pinned elsewhere has none.
    const onMainProvider = route.providerId === main.providerId;
    return onMainProvider && !decision.profile ? [route, ...fallbackRoutes(settings)] : [route];
  }

  private async run(
    pluginId: string,
    params: LlmCallOptions,
    shape: () => Shaped,
    afterReply?: (text: string) => void,
  ): Promise<{ result: CompleteResult; outcome: ChatOutcome }> {
    const audit = {
      pluginId,
      provider: null as string | null,
      model: null as string | null,
      purpose: typeof params.purpose === "string" ? params.purpose : null,
      task: typeof params.task === "string" && params.task ? params.task : null,
      inputTokens: 0,
      outputTokens: 0,
    };
    let sent = false;
    try {
      checkShaping(params);
      const shaped = shape();
      // One read of config.yaml per call: policies are never cached across edits (SPEC §2).
      const { settings, document } = this.deps.settings.view();
      const policy = document.plugins?.entries?.[pluginId]?.llm;
      const decision = checkLlmTrust(pluginId, params, policy, settings, this.deps.ownsSlot ?? noOwnSlots);
      const routes = this.routesFor(settings, decision);
      audit.provider = decision.providerId ?? routes[0]!.providerId;
      audit.model = routes[0]!.model;

      const body: ChatBody = { messages: shaped.messages };
      if (params.temperature !== undefined) body.temperature = params.temperature;
      if (params.maxTokens !== undefined) body.max_tokens = params.maxTokens;
      if (shaped.tools !== undefined) body.tools = shaped.tools as ChatBody["tools"];
      if (shaped.toolChoice !== undefined) body.tool_choice = shaped.toolChoice;
      if (shaped.responseFormat) body.response_format = shaped.responseFormat;
      const timeoutSeconds =
        params.timeout ??
        (decision.task ? (settings.auxiliary[decision.task]?.timeout ?? AUX_DEFAULT_TIMEOUT_S) : undefined);
      const options = timeoutSeconds !== undefined ? { timeoutMs: timeoutSeconds * 1000 } : {};

      sent = true;
      const answered = await runWithFallback(routes, (route) =>
        this.deps.engine.complete(route, body, options),
      );
      const outcome = answered.result;
      const provider = decision.providerId ?? answered.route.providerId;
      audit.provider = provider;
      audit.model = outcome.model;
      audit.inputTokens = outcome.usage.inputTokens;
      audit.outputTokens = outcome.usage.outputTokens;
      this.bill(pluginId, params.sessionId, outcome.usage);
      afterReply?.(outcome.text);

      const resultAudit: LlmAudit = {
        pluginId,
        purpose: audit.purpose,
        profile: decision.profile ?? null,
        task: decision.task,
        schemaName: shaped.schemaName,
      };
      const result: CompleteResult = {
        text: outcome.text,
        provider,
        model: outcome.model,
        agentId: decision.agentId,
        usage: { ...outcome.usage },
        audit: resultAudit,
        ...(outcome.toolCalls.length > 0 && { toolCalls: outcome.toolCalls.map((c) => structuredClone(c)) }),
      };
      writeLlmAudit(this.deps.log, { ...audit, outcome: "ok" });
      return { result, outcome };
    } catch (error) {
      const refused = !sent && (error instanceof PluginLlmTrustError || error instanceof PluginLlmInputError);
      writeLlmAudit(this.deps.log, { ...audit, outcome: refused ? "refused" : "error" });
      throw error;
    }
  }

  private bill(pluginId: string, sessionId: unknown, usage: Usage): void {
    if (typeof sessionId !== "string" || sessionId === "" || !this.deps.billUsage) return;
    try {
      this.deps.billUsage(sessionId, `plugin_llm:${pluginId}`, usage);
    } catch (error) {
      this.deps.log.write("WARN", "plugin_llm_billing_failed", {
        plugin: pluginId,
        session: sessionId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
