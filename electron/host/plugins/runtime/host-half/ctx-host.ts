/**
 * The host's half of one plugin's `ctx`: one handler per entry of `CtxCalls` (the compiler
 * checks none is missing). Handlers a worker registers become proxies in the host's registries:
 * calling one invokes the worker with the call's deadline (docs/contract.md §5.4: hooks 30 s, commands and
 * tools 120 s); a throw in the plugin comes back as a PluginHandlerError naming it.
 */
import { pluginFaultAdvice } from "../plugin-fault-advice.js";
import { Ajv } from "ajv";
import type { LogFields, PluginLlm } from "../../../../../plugins/sdk/types.js";
import type { AgentLog } from "../../../logging/agent-log.js";
import type { AuxiliaryTaskRegistry } from "../../../models/auxiliary-tasks.js";
import type { CommandRegistry } from "../../registries/command-registry.js";
import type { HookRegistry } from "../../registries/hook-registry.js";
import { isHookName } from "../../registries/hook-types.js";
import type { IdleTaskScheduler } from "../../idle/idle-scheduler.js";
import { idleTaskNameProblem, parseIdleTaskOptions } from "../../idle/idle-task-options.js";
import { injectMessageProblem, PluginInjectError } from "../../manager/inject-message.js";
import type { FilePluginState } from "../../manager/plugin-state.js";
import type { ToolRegistry } from "../../registries/tool-registry.js";
import { emitProblem, PluginEventError } from "../../pages/plugin-event-checks.js";
import type { PluginRpcRegistry } from "../../pages/rpc-registry.js";
import type { CtxCalls, ForkStart, ForkState } from "../boundary.js";
import type { HandlerTable } from "../endpoint.js";
import type { WorkerSession } from "./worker-session.js";

export type CallDeadlines = Record<"hook" | "command" | "tool" | "rpc", number>;

export const CALL_DEADLINES_MS: CallDeadlines = {
  hook: 30_000,
  command: 120_000,
  tool: 120_000,
  rpc: 60_000,
};

/** A plugin's command or tool handler failed; the message names the plugin and the handler. */
export class PluginHandlerError extends Error {
  override readonly name = "PluginHandlerError";
  constructor(
    message: string,
    readonly pluginId: string,
    /** `plugin_timeout` or `plugin_unresponsive` when the plugin did not answer. */
    readonly reason?: string,
  ) {
    super(message);
  }
}

export class PluginRegistrationError extends Error {
  override readonly name = "PluginRegistrationError";
}

export interface CtxHostDeps {
  pluginId: string;
  llm: PluginLlm;
  state: FilePluginState;
  commands: CommandRegistry;
  hooks: HookRegistry;
  tools: ToolRegistry;
  /** The host's slot registry (docs/contract.md §6.3); a plugin's slots leave it when the plugin does. */
  slots: Pick<AuxiliaryTaskRegistry, "register">;
  log: AgentLog;
  /** Where idle tasks go (docs/contract.md §9.4); absent in rigs that do not schedule them. */
  idleTasks?: Pick<IdleTaskScheduler, "register">;
  /** Starts a turn from this plugin in a chat (docs/contract.md §9.3); false when the chat does not exist. */
  injectMessage?(sessionId: string, text: string): boolean;
  /** The plugin's live worker session. */
  session(): WorkerSession;
  deadlines?: Partial<CallDeadlines>;
  /** The worker said it booted. */
  onReady(): void;
  /** Counts calls into the plugin (Settings → Plugins shows calls today). */
  onCall?(): void;
  /** Masks secrets (with the vault's keys, which the worker never has) in text a plugin returns. */
  redact?(text: string): string;
  /** Throws once the plugin was disabled or restarted: a late message of its old worker is refused. */
  assertActive(): void;
  /** `plugin.<id>.<method>` handlers (docs/contract.md §8); they leave when the plugin does. */
  rpc: PluginRpcRegistry;
  /** Delivers `plugin.<id>.<event>` to the clients showing the session (validated here first). */
  emitEvent(sessionId: string, event: string, payload: Record<string, unknown>): void;
  /** `ctx.forkSession` (docs/contract.md §7.4); absent where the host has no sessions (every call answers null). */
  forks?: PluginForks;
  /** `ctx.sideQuestion` for this plugin (docs/contract.md §7.3); absent = always null. */
  sideQuestion?(token: unknown, prompt: unknown, options: unknown): Promise<string | null>;
}

/** The host's fork service as one plugin's `ctx` reaches it. */
export interface PluginForks {
  start(
    pluginId: string,
    raw: { token: unknown; prompt: unknown; options: unknown },
    onUpdate: (forkId: string, state: ForkState) => void,
  ): ForkStart | null;
  cancel(pluginId: string, forkId: string): void;
}

// Made on the first plugin tool registration, not at start-up.
let schemaChecker: Ajv | null = null;
const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function logFields(fields: unknown): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  if (!fields || typeof fields !== "object") return out;
  for (const [key, value] of Object.entries(fields as LogFields)) {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(key) || key === "plugin" || key === "message") continue;
    out[key] =
      value === null || typeof value === "number" || typeof value === "boolean" ? value : String(value);
  }
  return out;
}

export function createCtxHost(deps: CtxHostDeps): HandlerTable<CtxCalls> {
  const { pluginId } = deps;
  const deadline = { ...CALL_DEADLINES_MS, ...deps.deadlines };

  /** A registry entry's handler: a call into the worker, errors named after the plugin. */
  const proxy =
    (handlerId: string, what: string, logEvent: string, deadlineMs: number) =>
    async (...args: unknown[]): Promise<unknown> => {
      deps.onCall?.();
      try {
        // No copy of `args` here: the channel encodes the frame as it is sent, before this call
        // returns, so what the worker gets cannot change with the caller's objects afterwards.
        const value = await deps.session().invoke(handlerId, args, deadlineMs, what);
        return typeof value === "string" && deps.redact ? deps.redact(value) : value;
      } catch (error) {
        const reason = (error as { reason?: unknown }).reason;
        deps.log.write("ERROR", logEvent, { plugin: pluginId, name: what, error: describe(error) });
        throw new PluginHandlerError(
          `${what} (plugin '${pluginId}') failed: ${describe(error)}. ${pluginFaultAdvice(pluginId)}`,
          pluginId,
          typeof reason === "string" ? reason : undefined,
        );
      }
    };

  return {
    ready: () => {
      deps.onReady();
      return null;
    },
    "llm.complete": (params) => deps.llm.complete(params),
    "llm.completeStructured": (params) => deps.llm.completeStructured(params),
    "state.set": ({ key, value }) => {
      deps.assertActive();
      deps.state.set(key, value);
      return null;
    },
    "state.delete": ({ key }) => {
      deps.assertActive();
      return deps.state.delete(key);
    },
    log: ({ level, message, fields }) => {
      const known = level === "INFO" || level === "WARN" || level === "ERROR" ? level : "INFO";
      deps.log.write(known, "plugin_log", {
        plugin: pluginId,
        message: String(message),
        ...logFields(fields),
      });
      return null;
    },
    registerCommand: ({ name, description, argsHint, handlerId }) => {
      deps.assertActive();
      deps.commands.register({
        pluginId,
        name: String(name),
        description: String(description),
        argsHint: String(argsHint),
        handler: proxy(handlerId, `/${name}`, "plugin_command_error", deadline.command),
      });
      return null;
    },
    registerHook: ({ name, handlerId }) => {
      deps.assertActive();
      if (!isHookName(name)) throw new PluginRegistrationError(`Unknown hook "${String(name)}".`);
      // The registry logs and skips a throw or a timeout (docs/contract.md §5.3); it gets the raw failure.
      const invoke = proxyRaw(deps, handlerId, `hook ${name}`, deadline.hook);
      deps.hooks.register(pluginId, name, invoke as never);
      return null;
    },
    registerTool: ({ name, toolset, description, parameters, handlerId }) => {
      deps.assertActive();
      try {
        (schemaChecker ??= new Ajv({ strict: false })).compile(parameters);
      } catch (error) {
        throw new PluginRegistrationError(
          `registerTool("${name}"): parameters is not a valid JSON Schema (${describe(error)}).`,
        );
      }
      deps.tools.register({
        pluginId,
        name: String(name),
        toolset: String(toolset),
        description: String(description),
        parameters,
        handler: proxy(handlerId, `tool ${name}`, "plugin_tool_error", deadline.tool),
      });
      return null;
    },
    registerAuxiliaryTask: ({ key, spec }) => {
      deps.assertActive();
      deps.slots.register(pluginId, key, spec);
      return null;
    },
    injectMessage: ({ sessionId, text }) => {
      deps.assertActive();
      const problem = injectMessageProblem(sessionId, text);
      if (problem !== null) throw new PluginInjectError(problem);
      if (!deps.injectMessage) throw new PluginInjectError("This host has no chats to inject into.");
      return deps.injectMessage(sessionId, text);
    },
    registerIdleTask: ({ name, handlerId, options }) => {
      deps.assertActive();
      const problem = idleTaskNameProblem(name);
      if (problem !== null) throw new PluginRegistrationError(problem);
      const parsed = parseIdleTaskOptions(name, options);
      if (!parsed.ok) throw new PluginRegistrationError(parsed.problem);
      if (!deps.idleTasks) throw new PluginRegistrationError("This host runs no idle tasks.");
      deps.idleTasks.register({
        pluginId,
        name,
        options: parsed.options,
        run: (context, deadlineMs) => {
          deps.onCall?.();
          return deps.session().invoke(handlerId, [context], deadlineMs, `idle task ${name}`);
        },
      });
      return null;
    },
    forkSession: (raw) => {
      deps.assertActive();
      if (!deps.forks) return null;
      return deps.forks.start(pluginId, raw, (forkId, state) => {
        // The worker may be gone by now (disabled, restarted): its handle has nobody to tell.
        try {
          void deps
            .session()
            .endpoint.call("forkUpdate", { forkId, state })
            .catch(() => undefined);
        } catch {
          // As above.
        }
      });
    },
    "forkSession.cancel": ({ forkId }) => {
      deps.forks?.cancel(pluginId, String(forkId));
      return null;
    },
    registerRpc: ({ method, handlerId }) => {
      deps.assertActive();
      const what = `RPC ${method}`;
      // The dispatcher maps the raw failure (its reason) to the answer the client gets.
      deps.rpc.register(pluginId, String(method), async (params, context) => {
        deps.onCall?.();
        try {
          return await deps.session().invoke(handlerId, [params, context], deadline.rpc, what);
        } catch (error) {
          deps.log.write("ERROR", "plugin_rpc_error", {
            plugin: pluginId,
            name: what,
            error: describe(error),
          });
          throw error;
        }
      });
      return null;
    },
    emitToSession: ({ sessionId, event, payload }) => {
      deps.assertActive();
      const problem = emitProblem(sessionId, event, payload);
      if (problem) throw new PluginEventError(`emitToSession: ${problem}`);
      deps.emitEvent(sessionId, event, payload);
      return null;
    },
    sideQuestion: async ({ token, prompt, options }) => {
      deps.assertActive();
      return deps.sideQuestion ? deps.sideQuestion(token, prompt, options) : null;
    },
  };
}

function proxyRaw(deps: CtxHostDeps, handlerId: string, what: string, deadlineMs: number) {
  return (payload: unknown): Promise<unknown> => {
    deps.onCall?.();
    return deps.session().invoke(handlerId, [payload], deadlineMs, what);
  };
}
