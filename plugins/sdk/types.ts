/**
 * The plugin API of Hermes Desktop (docs/contract.md §5, §6.6): the one module plugin authors import types
 * from. The host implements exactly these types, so they are written once.
 *
 * In a plain-JS plugin: `/** @param {import("../sdk/types.js").PluginContext} ctx *\/`.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

// ---------------------------------------------------------------- ctx.llm

/** Token usage as the provider reports it; fields it does not report are 0, `costUsd` null. */
export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number | null;
}

/** OpenAI chat shapes. */
export type LlmContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string; detail?: "auto" | "low" | "high" } };

export interface LlmToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type LlmMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | LlmContentPart[] }
  | { role: "assistant"; content: string | null; tool_calls?: LlmToolCall[] }
  | { role: "tool"; content: string; tool_call_id: string };

export interface LlmToolDefinition {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export type LlmToolChoice = "auto" | "none" | "required" | { type: "function"; function: { name: string } };

/** Arguments every `ctx.llm` call takes. Route-picking ones are gated by the user's config. */
export interface LlmCallOptions {
  /** Gated: `plugins.entries.<id>.llm.allow_provider_override` (+ `allowed_providers`). */
  provider?: string;
  /** Gated: `plugins.entries.<id>.llm.allow_model_override` (+ `allowed_models`). */
  model?: string;
  temperature?: number;
  maxTokens?: number;
  /** Seconds. */
  timeout?: number;
  /** Gated when not "main": `allow_agent_id_override`. */
  agentId?: string;
  /** Gated when not "default": `allow_profile_override`. */
  profile?: string;
  /** Free-form audit string, shown in `logs/agent.log` and `result.audit`. */
  purpose?: string;
  /** An auxiliary slot; absent or "auto" = the main model. */
  task?: string;
  /** Bill the call's usage to this chat session (as `plugin_llm:<id>`). */
  sessionId?: string;
}

export interface CompleteParams extends LlmCallOptions {
  messages: LlmMessage[];
  tools?: LlmToolDefinition[];
  toolChoice?: LlmToolChoice;
}

export interface LlmAudit {
  pluginId: string;
  purpose: string | null;
  profile: string | null;
  task: string | null;
  schemaName: string | null;
}

export interface CompleteResult {
  text: string;
  /** The provider override, else the provider of the route that answered. */
  provider: string;
  /** The model the response names, else the override, else the route's model. */
  model: string;
  agentId: string;
  usage: LlmUsage;
  audit: LlmAudit;
  /** Present when the model asked for tool calls. */
  toolCalls?: LlmToolCall[];
}

export type InputBlock =
  | { type: "text"; text: string }
  /** Sent as a `data:<mimeType>;base64,…` URL. */
  | { type: "image"; data: Uint8Array; mimeType: string }
  | { type: "image"; url: string };

export interface CompleteStructuredParams extends LlmCallOptions {
  instructions: string;
  input: InputBlock[];
  /** Asks for `response_format: json_schema`; the reply is parsed and validated (ajv). */
  jsonSchema?: Record<string, unknown>;
  /** Without a schema: asks for `response_format: json_object` and parses the reply. */
  jsonMode?: boolean;
  schemaName?: string;
  systemPrompt?: string;
}

export interface StructuredResult extends CompleteResult {
  /** The parsed JSON when `contentType` is "json", else null. */
  parsed: unknown;
  contentType: "json" | "text";
}

export interface PluginLlm {
  complete(params: CompleteParams): Promise<CompleteResult>;
  completeStructured(params: CompleteStructuredParams): Promise<StructuredResult>;
}

/**
 * Error `name`s a plugin can branch on (`err.name === "PluginLlmTrustError"`):
 * - PluginLlmInputError: bad arguments ("Unknown input block", "non-empty instructions",
 *   "at least one input", "unknown provider").
 * - PluginLlmTrustError: an override the user has not granted; the message names the config key.
 * - PluginLlmSchemaError: the reply was JSON but "did not match schema".
 * - PluginLlmBudgetError: today's token budget is spent (`reason: "plugin_budget_exhausted"`).
 */
export type PluginLlmErrorName =
  "PluginLlmInputError" | "PluginLlmTrustError" | "PluginLlmSchemaError" | "PluginLlmBudgetError";

// ---------------------------------------------------------------- commands, tools, hooks

export interface CommandContext {
  sessionId: string;
  gatewaySessionKey: string;
}

export interface CommandSpec {
  /** Without the slash: `tldr` for `/tldr`. `[a-z0-9][a-z0-9_-]{0,63}`. */
  name: string;
  description?: string;
  /** Shown in the composer's autocomplete, e.g. `<text>`. */
  argsHint?: string;
  /** Returns the text to show in the chat. */
  handler(rawArgs: string, context: CommandContext): string | Promise<string>;
}

export interface ToolCallContext {
  sessionId: string;
  /** `plugin_fork:<id>` inside a fork; absent otherwise. */
  turnOrigin?: string;
}

export interface ToolSpec {
  name: string;
  toolset?: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
  /** Returns a string or a JSON value. Return `{error: "…"}` to report a failure to the model. */
  handler(args: unknown, context: ToolCallContext): unknown;
}

export interface SessionScoped {
  sessionId: string;
  /** The key of the window or connection that owns the session. */
  gatewaySessionKey: string;
}

/** Hook payloads (docs/contract.md §5.3). Keys are camelCase. */
export interface HookPayloads {
  on_session_start: SessionScoped;
  on_session_end: SessionScoped;
  pre_llm_call: SessionScoped & { userMessage: string };
  post_llm_call: SessionScoped & {
    sideQuestionToken: string | null;
    reviewSignals: Record<string, unknown>;
    reply: string;
  };
  pre_tool_call: SessionScoped & { toolName: string; args: unknown; turnOrigin?: string };
  post_tool_call: SessionScoped & { toolName: string; args: unknown; result: unknown };
  pre_api_request: SessionScoped & { provider: string; model: string };
  post_api_request: SessionScoped & { provider: string; model: string; usage: LlmUsage };
  pre_auxiliary_call: Partial<SessionScoped> & { auxTask: string; pluginId: string | null };
  post_auxiliary_call: Partial<SessionScoped> & { auxTask: string; pluginId: string | null; usage: LlmUsage };
}

export type HookName = keyof HookPayloads;

/**
 * What a hook may return; anything else is ignored.
 * - `pre_tool_call`: `{block: "reason"}` blocks the tool (a timeout blocks it too).
 * - `post_tool_call`: `{explanation: "one sentence"}` is shown under the tool call in the chat.
 */
export interface HookResults {
  on_session_start: void;
  on_session_end: void;
  pre_llm_call: void;
  post_llm_call: void;
  pre_tool_call: { block?: string } | void;
  post_tool_call: { explanation?: string } | void;
  pre_api_request: void;
  post_api_request: void;
  pre_auxiliary_call: void;
  post_auxiliary_call: void;
}

export type HookHandler<H extends HookName = HookName> = (
  payload: HookPayloads[H],
) => HookResults[H] | Promise<HookResults[H]>;

// ---------------------------------------------------------------- state, log, context

/** JSON values persisted per plugin under `<home>/plugin-data/<id>/state.json`. */
export interface PluginState {
  get<T = JsonValue>(key: string): T | undefined;
  /** Writes at once (atomically). Throws a TypeError for values JSON cannot hold. */
  set(key: string, value: JsonValue): void;
  /** True when the key existed. */
  delete(key: string): boolean;
}

export type LogFields = Record<string, string | number | boolean | null>;

export interface PluginLog {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export type CapabilityId =
  | "llm.side_question"
  | "llm.session_fork"
  | "llm.provider_override"
  | "llm.model_override"
  | "llm.task_override";

/** An `auxiliary.<key>` block's settings a plugin slot starts from (docs/contract.md §6.2, §6.3). */
export interface AuxiliaryTaskDefaults {
  /** `auto`/`main` (follow), or a provider id. */
  provider?: string;
  model?: string;
  base_url?: string;
  /** Seconds. */
  timeout?: number;
  reasoning_effort?: "" | "none" | "minimal" | "low" | "medium" | "high" | "xhigh";
  extra_body?: Record<string, JsonValue>;
}

/** `ctx.registerAuxiliaryTask(key, spec)` (docs/contract.md §6.3). */
export interface AuxiliaryTaskSpec {
  /** The row label in Settings → Models → Auxiliary; the key when absent. */
  displayName?: string;
  description?: string;
  /** Sit under the user's `auxiliary.<key>` block: the user's values win. */
  defaults?: AuxiliaryTaskDefaults;
  /** A built-in slot or a plugin slot registered earlier; its route is followed (docs/contract.md §6.4). */
  inheritFrom?: string;
}

/** `ctx.registerIdleTask(name, fn, options)` (docs/contract.md §9.4). */
export interface IdleTaskOptionsInput {
  /** Hours between runs, counted from the start of the last run; any positive number (1/3600 = a second). */
  intervalHours: number;
  /** Hours with no person's input and no running turn before a run may start; default 2. */
  minIdleHours?: number;
  /** `defer` (default): the first run waits one interval from the first registration; `now`: it does not. */
  firstRun?: "defer" | "now";
}

/** What an idle task's `fn` receives. An idle task is no turn: it has no side-question token. */
export interface IdleTaskContext {
  task: string;
  /** ISO time the previous run started, null before the first. */
  lastRun: string | null;
  lastStatus: "ok" | "error" | "timeout" | null;
  sideQuestionToken: null;
}

export type IdleTaskFn = (context: IdleTaskContext) => unknown;

/** `ctx.sideQuestion`'s options (docs/contract.md §7.3). */
export interface SideQuestionOptions {
  /** Seconds for the whole call: default 15, capped at 60. */
  timeout?: number;
}

/** What a `ctx.registerRpc` handler learns about its call (docs/contract.md §8). */
export interface RpcContext {
  /** The session the calling page is shown with (`params.session_id`); null for a script's call. */
  sessionId: string | null;
}

/**
 * A `plugin.<id>.<method>` handler: it returns a JSON value (or a Promise of one; nothing answers
 * null). A throw answers `plugin_rpc_failed`; past 60 s the call fails with `plugin_timeout`.
 */
export type RpcHandler = (
  params: { [key: string]: JsonValue },
  context: RpcContext,
) => JsonValue | void | Promise<JsonValue | void>;

export interface PluginContext {
  readonly pluginId: string;
  readonly llm: PluginLlm;
  readonly state: PluginState;
  /**
   * The `register*` members are synchronous: each waits for the app's answer, and a refusal (a
   * name or key another plugin holds, a built-in one, a bad argument) throws a
   * `PluginRegistrationError` right here, during `register` and after it.
   */
  registerCommand(spec: CommandSpec): void;
  registerHook<H extends HookName>(name: H, handler: HookHandler<H>): void;
  registerTool(spec: ToolSpec): void;
  /**
   * An auxiliary model slot the user can pin in Settings → Models → Auxiliary (docs/contract.md §6.3). The key
   * matches `^[a-z][a-z0-9_]{0,63}$`; a built-in key ("reserved for a built-in task") and another
   * plugin's key ("already registered by plugin '<id>'") throw `PluginRegistrationError` in this
   * call; registering again replaces this plugin's entry. Call it with `ctx.llm` `task: key`.
   */
  registerAuxiliaryTask(key: string, spec: AuxiliaryTaskSpec): void;
  /**
   * Runs `fn` in this worker when the app has been idle `minIdleHours` and `intervalHours` passed
   * since the last run (docs/contract.md §9.4); one run at a time, each within 10 minutes. A throw is recorded
   * as `last_status: "error"`, a missed deadline as `"timeout"` (in `plugin-data/<id>/idle-tasks.json`).
   * `name` is 1 to 64 letters, digits, `_` or `-`; registering a name again replaces it.
   */
  registerIdleTask(name: string, fn: IdleTaskFn, options: IdleTaskOptionsInput): void;
  /**
   * Starts a turn in a chat with `text` as its message, marked as coming from this plugin (docs/contract.md
   * §9.3). Resolves true when the chat took it, false when no chat has that id (any more). The
   * turn first waits up to 120 s for the chat's background work (forks, the memory review), then
   * cancels what still runs; a person's message ends that wait at once. Rejects with
   * `PluginInjectError` for an empty text or a sessionId that is not a string.
   */
  injectMessage(sessionId: string, text: string): Promise<boolean>;
  /**
   * A background copy of the session's agent after a turn (docs/contract.md §7.4; needs `llm.session_fork`).
   * `token` is `post_llm_call`'s `sideQuestionToken`. Null when nothing was started: no grant, a
   * bad, expired or spent token, a tool that is not this plugin's own (these three keep the token),
   * or one of its tools the session does not offer, a task that is not its own (these spend it).
   */
  forkSession(token: string | null, prompt: string, options?: ForkOptions): Promise<ForkHandle | null>;
  /**
   * A method the plugin's pages (and scripts) call as `plugin.<id>.<method>` (docs/contract.md §8). `method` is
   * dot-separated segments of `[A-Za-z0-9_-]`, at most 128 characters; registering again replaces it.
   * For model calls answer at once (e.g. `{job}`) and deliver the result with `emitToSession`.
   */
  registerRpc(method: string, handler: RpcHandler): void;
  /**
   * Sends `plugin.<id>.<event>` with `payload` (a plain JSON object, at most 1 MB) to the clients
   * and pages showing `sessionId`. `event` follows the method name rules; a bad one throws.
   */
  emitToSession(sessionId: string, event: string, payload: { [key: string]: JsonValue }): void;
  hasCapability(id: CapabilityId | string): boolean;
  /**
   * Asks the session's own agent one question after a turn (docs/contract.md §7.3; needs `llm.side_question`):
   * `token` is `post_llm_call`'s `sideQuestionToken`. Resolves to the reply text, or null when
   * refused (no grant, a bad, expired or spent token) or failed (model changed since the turn,
   * timeout, provider error, empty reply). The first call with a valid token spends it for every
   * plugin. Rejects with PluginLlmInputError for a prompt that is not a non-empty string of at
   * most 4096 characters or a bad timeout, and with PluginLlmBudgetError when today's budget is
   * spent; neither spends the token. Don't await it inside the hook: hooks are time-bounded.
   */
  sideQuestion(token: string | null, prompt: string, options?: SideQuestionOptions): Promise<string | null>;
  /** Masks secrets; follows `security.redact_secrets` unless `force` is true. */
  redact(text: string, options?: { force?: boolean }): string;
  readonly log: PluginLog;
}

// ---------------------------------------------------------------- ctx.forkSession (docs/contract.md §7.4)

/** How a fork ended; `running` until it does. */
export type ForkOutcome =
  | "running"
  | "ok"
  | "cancelled"
  | "timeout"
  | "budget_exhausted"
  | "error"
  | "refused:runtime_changed"
  | "refused:parent_gone";

export interface ForkOptions {
  /** Names of this plugin's own tools the fork may call (the session must offer them); default none. */
  tools?: string[];
  /** 1 to 16 model requests; default 8. */
  maxIterations?: number;
  /** Input tokens over all of the fork's requests; can only lower the default (75 % of the context window). */
  inputBudget?: number;
  /** One of this plugin's own auxiliary slots: the fork runs on that slot's model. */
  task?: string;
  /** Seconds of wall clock, at most 1800 (the default). */
  timeout?: number;
}

/** A fork in the background. Its fields change as it runs; it never exposes the fork itself. */
export interface ForkHandle {
  readonly done: boolean;
  readonly cancelled: boolean;
  readonly outcome: ForkOutcome;
  /** The fork's final text, or null. */
  readonly result: string | null;
  /** The allowed tools it called, in order. */
  readonly actions: readonly string[];
  /** Resolves true once the fork is done, false when `timeoutMs` passed first (no bound when absent). */
  wait(timeoutMs?: number): Promise<boolean>;
  /** Asks the fork to stop; `outcome` becomes `cancelled` once it has. */
  cancel(): void;
}

/** The shape of a plugin's main module: a named or default `register`. */
export type RegisterFn = (ctx: PluginContext) => void | Promise<void>;
