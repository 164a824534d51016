/**
 * `ctx.llm` (docs/contract.md §6.6): a plugin's model calls, on the user's route, behind the trust gate.
 * Every call is audited (docs/contract.md §6.7), refused ones too; usage is billed to the session the call
 * names as `plugin_llm:<id>`. Keys stay in the engine: nothing here hands one to the plugin.
 */
import { effectiveLlmPolicy } from "../capabilities/capabilities.js";
import { Ajv, type ValidateFunction } from "ajv";
import type {
  CompleteParams,
  CompleteResult,
  CompleteStructuredParams,
  LlmAudit,
  LlmCallOptions,
  PluginLlm,
  StructuredResult,
} from "../../../../plugins/sdk/types.js";
import type { Settings, SettingsDocument } from "../../config/config-schema.js";
import type { ChatBody, ChatMessage } from "../../llm/chat-request.js";
import type { ChatEngine } from "../../llm/chat-engine.js";
import { runWithFallback } from "../../llm/fallback.js";
import { fallbackRoutes, mainRoute, routeFor, type Route } from "../../llm/route.js";
import type { Usage } from "../../llm/usage.js";
import type { AgentLog } from "../../logging/agent-log.js";
import { resolveAuxiliaryRoute } from "../../models/auxiliary-route.js";
import { supportsVision } from "../../models/model-capabilities.js";
import type { AuxiliaryTaskRegistry } from "../../models/auxiliary-tasks.js";
import type { HookRegistry } from "../registries/hook-registry.js";
import { parseJsonReply } from "./json-reply.js";
import type { PluginBudgets } from "../budgets/plugin-budget.js";
import { PluginLlmInputError, PluginLlmSchemaError } from "./llm-errors.js";
import { writeLlmAudit } from "./plugin-audit.js";
import { asParams, checkMessages, checkShaping } from "./llm-call-checks.js";
import { buildStructuredRequest } from "./structured-request.js";
import { checkLlmTrust, type GateDecision } from "./trust-gate.js";

export type BillUsage = (sessionId: string, category: string, usage: Usage) => void;

export interface PluginLlmDeps {
  settings: { view(): { settings: Settings; document: Readonly<SettingsDocument> } };
  engine: Pick<ChatEngine, "complete">;
  log: AgentLog;
  /** Records usage on a chat session; failures are logged, never raised to the plugin. */
  billUsage?: BillUsage;
  /** The slot registry: which slots exist, who owns them, and how they resolve (docs/contract.md §6.3, §6.4). */
  slots: AuxiliaryTaskRegistry;
  /** `pre_auxiliary_call` / `post_auxiliary_call` fire around calls on a slot (docs/contract.md §5.3). */
  hooks?: Pick<HookRegistry, "fire">;
  /** Daily token budgets (docs/contract.md §5.4): checked before a call, charged after it. */
  budget?: Pick<PluginBudgets, "check" | "spend">;
}
const MAX_CACHED_SCHEMAS = 64;

interface Shaped {
  messages: ChatMessage[];
  tools?: unknown;
  toolChoice?: unknown;
  responseFormat?: Record<string, unknown>;
  schemaName: string | null;
}

/** What a reply turns into besides the common result: nothing for `complete`, the parse for structured. */
type ReadReply<T> = (text: string) => T;

export class PluginLlmService {
  private readonly ajv = new Ajv({ allErrors: true, strict: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly deps: PluginLlmDeps) {}

  /**
   * The `ctx.llm` object of one plugin: plain closures, no path back to the host's services.
   * `assertActive` throws once the plugin is disabled; that refusal is audited like any other.
   * `scrub` masks secrets in the message of an error on its way to the plugin: a provider's error
   * text can echo the key, and a base URL can carry credentials.
   */
  forPlugin(
    pluginId: string,
    assertActive: () => void = () => undefined,
    scrub: (text: string) => string = (text) => text,
  ): PluginLlm {
    const scrubbed = <T>(call: Promise<T>): Promise<T> =>
      call.catch((error: unknown) => {
        if (error instanceof Error) {
          error.message = scrub(error.message);
          if (error.stack) error.stack = scrub(error.stack);
        }
        throw error;
      });
    return Object.freeze({
      complete: (params: CompleteParams) => scrubbed(this.complete(pluginId, params, assertActive)),
      completeStructured: (params: CompleteStructuredParams) =>
        scrubbed(this.completeStructured(pluginId, params, assertActive)),
    });
  }

  async complete(
    pluginId: string,
    rawParams: CompleteParams,
    assertActive: () => void = () => undefined,
  ): Promise<CompleteResult> {
    const params = asParams<CompleteParams>(rawParams);
    const { result } = await this.run(
      pluginId,
      params,
      assertActive,
      () => ({
        messages: checkMessages(params.messages),
        tools: params.tools,
        toolChoice: params.toolChoice,
        schemaName: null,
      }),
      () => undefined,
    );
    return result;
  }

  async completeStructured(
    pluginId: string,
    rawParams: CompleteStructuredParams,
    assertActive: () => void = () => undefined,
  ): Promise<StructuredResult> {
    const params = asParams<CompleteStructuredParams>(rawParams);
    let readReply: ReadReply<Pick<StructuredResult, "parsed" | "contentType">> = () => ({
      parsed: null,
      contentType: "text",
    });
    const { result, extra } = await this.run(
      pluginId,
      params,
      assertActive,
      () => {
        const request = buildStructuredRequest(params);
        const validate = params.jsonSchema ? this.validator(params.jsonSchema) : null;
        if (request.wantsJson) readReply = (text) => this.readJsonReply(text, validate);
        return {
          messages: request.messages as ChatMessage[],
          responseFormat: request.responseFormat,
          schemaName: request.schemaName,
        };
      },
      (text) => readReply(text),
    );
    return { ...result, ...extra };
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

  /** Not JSON: text. JSON that breaks the schema: PluginLlmSchemaError (docs/contract.md §6.6). */
  private readJsonReply(
    text: string,
    validate: ValidateFunction | null,
  ): Pick<StructuredResult, "parsed" | "contentType"> {
    const reply = parseJsonReply(text);
    if (!reply.ok) return { parsed: null, contentType: "text" };
    if (validate && !validate(reply.value)) {
      const detail = this.ajv.errorsText(validate.errors, { dataVar: "reply" });
      throw new PluginLlmSchemaError(
        `The model's JSON reply did not match schema: ${detail}`,
        reply.value,
        text,
      );
    }
    return { parsed: reply.value, contentType: "json" };
  }

  /**
   * The route the gate allowed: the slot's route for a built-in task, else the main model, with
   * the provider and model overrides on top. The user's fallback chain belongs to the main
   * provider, so it applies only there, and never to a provider or profile the plugin picked:
   * then the result's provider is always the one the plugin asked for (docs/contract.md §6.6 attribution).
   */
  /** The slot a call runs on: the gated `task`, or `vision` for image input (docs/contract.md §6.6). */
  private slotFor(settings: Settings, decision: GateDecision, hasImages: boolean): string | null {
    if (decision.task) return decision.task;
    // Image input with a text-only main model goes to the vision slot (docs/contract.md §6.6), unless the
    // plugin chose its own route; an unpinned vision slot resolves to the main model anyway.
    const { provider, model } = settings.model;
    const toVision =
      hasImages && !decision.providerId && !decision.model && !supportsVision(settings, provider, model);
    return toVision ? "vision" : null;
  }

  private routesFor(settings: Settings, decision: GateDecision, slot: string | null): Route[] {
    const main = mainRoute(settings);
    const base = slot ? resolveAuxiliaryRoute(slot, settings, this.deps.slots) : main;
    const route: Route = decision.providerId
      ? routeFor(settings, decision.providerId, decision.model ?? base.model)
      : { ...base, model: decision.model ?? base.model };
    if (decision.profile) route.profile = decision.profile;
    const pinned = decision.providerId !== undefined || decision.profile !== undefined;
    return !pinned && route.providerId === main.providerId ? [route, ...fallbackRoutes(settings)] : [route];
  }

  private timeoutSeconds(params: LlmCallOptions, slot: string | null, route: Route) {
    if (params.timeout !== undefined) return params.timeout;
    // The slot's resolved timeout; the engine's default for the main model.
    return slot ? route.timeoutSeconds : undefined;
  }

  private async run<T>(
    pluginId: string,
    params: Partial<LlmCallOptions>,
    assertActive: () => void,
    shape: () => Shaped,
    readReply: ReadReply<T>,
  ): Promise<{ result: CompleteResult; extra: T }> {
    const audit = {
      pluginId,
      provider: null as string | null,
      model: null as string | null,
      purpose: typeof params.purpose === "string" ? params.purpose : null,
      task: typeof params.task === "string" && params.task ? params.task : null,
      inputTokens: 0,
      outputTokens: 0,
    };
    // Until the gate has let the call through, any failure is a refusal: nothing was sent.
    let gated = false;
    try {
      assertActive();
      this.deps.budget?.check(pluginId);
      checkShaping(params);
      const shaped = shape();
      // One read of config.yaml per call: policies are never cached across edits (docs/contract.md §2).
      const { settings, document } = this.deps.settings.view();
      // The legacy flags, each also opened by its override capability (docs/contract.md §7.1).
      const policy = effectiveLlmPolicy(document.plugins?.entries?.[pluginId]);
      const decision = checkLlmTrust(pluginId, params, policy, settings, (id, task) =>
        this.deps.slots.owns(id, task),
      );
      gated = true;
      const slot = this.slotFor(settings, decision, hasImageParts(shaped.messages));
      const routes = this.routesFor(settings, decision, slot);
      audit.provider = routes[0]!.providerId;
      audit.model = routes[0]!.model;

      const body: ChatBody = { messages: shaped.messages };
      if (params.temperature !== undefined) body.temperature = params.temperature;
      if (params.maxTokens !== undefined) body.max_tokens = params.maxTokens;
      if (shaped.tools !== undefined) body.tools = shaped.tools as ChatBody["tools"];
      if (shaped.toolChoice !== undefined) body.tool_choice = shaped.toolChoice;
      if (shaped.responseFormat) body.response_format = shaped.responseFormat;
      const timeout = this.timeoutSeconds(params, slot, routes[0]!);
      const options = timeout !== undefined ? { timeoutMs: timeout * 1000 } : {};

      const hookScope = {
        ...(typeof params.sessionId === "string" && params.sessionId && { sessionId: params.sessionId }),
        auxTask: slot ?? "",
        pluginId,
      };
      if (slot) await this.deps.hooks?.fire("pre_auxiliary_call", hookScope);
      const answered = await runWithFallback(routes, (route) =>
        this.deps.engine.complete(route, body, options),
      );
      if (slot)
        await this.deps.hooks?.fire("post_auxiliary_call", { ...hookScope, usage: answered.result.usage });
      const outcome = answered.result;
      const provider = answered.route.providerId;
      audit.provider = provider;
      audit.model = outcome.model;
      audit.inputTokens = outcome.usage.inputTokens;
      audit.outputTokens = outcome.usage.outputTokens;
      this.deps.budget?.spend(pluginId, outcome.usage.inputTokens + outcome.usage.outputTokens);
      this.bill(pluginId, params.sessionId, outcome.usage);
      const extra = readReply(outcome.text);

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
      return { result, extra };
    } catch (error) {
      writeLlmAudit(this.deps.log, { ...audit, outcome: gated ? "error" : "refused" });
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

const hasImageParts = (messages: readonly ChatMessage[]): boolean =>
  messages.some(
    (m) => m.role === "user" && Array.isArray(m.content) && m.content.some((p) => p.type === "image_url"),
  );
