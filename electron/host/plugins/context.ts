/**
 * Builds a plugin's `ctx` (SPEC §5.2) from the host's services. `register*` calls are accepted
 * during and after `register`, until the plugin is disabled: then the context is revoked and every
 * member refuses, so a timer left running in a disabled plugin cannot re-register anything.
 */
import { Ajv } from "ajv";
import type {
  CommandSpec,
  HookHandler,
  HookName,
  LogFields,
  PluginContext,
  PluginLlm,
  PluginLog,
  PluginState,
  ToolSpec,
} from "../../../plugins/sdk/types.js";
import type { AgentLog, LogLevel } from "../logging/agent-log.js";
import type { Redact } from "../secrets/redaction.js";
import type { CommandRegistry } from "./command-registry.js";
import type { HookRegistry } from "./hook-registry.js";
import { hookNames, isHookName } from "./hook-types.js";
import type { ToolRegistry } from "./tool-registry.js";
import type { AuxiliaryTaskSpec } from "../models/auxiliary-tasks.js";

export class PluginRegistrationError extends Error {
  override readonly name = "PluginRegistrationError";
}

/** A plugin's command or tool handler threw; the message names the plugin and the handler. */
export class PluginHandlerError extends Error {
  override readonly name = "PluginHandlerError";
  constructor(
    message: string,
    readonly pluginId: string,
  ) {
    super(message);
  }
}

export class PluginInactiveError extends Error {
  override readonly name = "PluginInactiveError";
}

export interface ContextDeps {
  pluginId: string;
  /** Builds `ctx.llm`; the guard throws once the context is revoked. */
  llm: (assertActive: () => void) => PluginLlm;
  state: PluginState;
  commands: CommandRegistry;
  hooks: HookRegistry;
  tools: ToolRegistry;
  /** The host's slot registry, bound to this plugin (SPEC §6.3). */
  registerAuxiliaryTask: (key: string, spec: AuxiliaryTaskSpec) => void;
  hasCapability: (id: string) => boolean;
  redact: Redact;
  log: AgentLog;
}

export interface ContextHandle {
  ctx: PluginContext;
  /** Called when the plugin is disabled or failed: every later call on ctx refuses. */
  revoke(): void;
}

const toolNamePattern = /^[A-Za-z0-9_-]{1,64}$/;
const schemaChecker = new Ajv({ strict: false });

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

export function createPluginContext(deps: ContextDeps): ContextHandle {
  const { pluginId } = deps;
  let active = true;
  const assertActive = () => {
    if (!active) {
      throw new PluginInactiveError(
        `Plugin '${pluginId}' is disabled; enable it in Settings → Plugins first.`,
      );
    }
  };

  const wrap =
    <A extends unknown[]>(what: string, logEvent: string, fn: (...args: A) => unknown) =>
    async (...args: A): Promise<unknown> => {
      try {
        return await fn(...args);
      } catch (error) {
        deps.log.write("ERROR", logEvent, { plugin: pluginId, name: what, error: describe(error) });
        throw new PluginHandlerError(`${what} (plugin '${pluginId}') failed: ${describe(error)}`, pluginId);
      }
    };

  const registerCommand = (spec: CommandSpec): void => {
    assertActive();
    if (!spec || typeof spec.name !== "string" || typeof spec.handler !== "function") {
      throw new PluginRegistrationError("registerCommand needs {name, handler(rawArgs, context)}.");
    }
    const handler = spec.handler.bind(spec);
    deps.commands.register({
      pluginId,
      name: spec.name,
      description: typeof spec.description === "string" ? spec.description : "",
      argsHint: typeof spec.argsHint === "string" ? spec.argsHint : "",
      handler: wrap(`/${spec.name}`, "plugin_command_error", handler),
    });
  };

  const registerHook = <H extends HookName>(name: H, fn: HookHandler<H>): void => {
    assertActive();
    if (typeof name !== "string" || !isHookName(name)) {
      throw new PluginRegistrationError(
        `Unknown hook "${String(name)}"; use one of: ${hookNames.join(", ")}.`,
      );
    }
    if (typeof fn !== "function")
      throw new PluginRegistrationError(`registerHook("${name}") needs a function.`);
    // Throws and timeouts are logged and skipped by the registry (SPEC §5.3).
    deps.hooks.register(pluginId, name, fn as never);
  };

  const registerTool = (spec: ToolSpec): void => {
    assertActive();
    if (!spec || typeof spec.name !== "string" || !toolNamePattern.test(spec.name)) {
      throw new PluginRegistrationError("registerTool needs a name of 1 to 64 letters, digits, _ or -.");
    }
    if (typeof spec.handler !== "function") {
      throw new PluginRegistrationError(`registerTool("${spec.name}") needs handler(args, context).`);
    }
    const parameters = spec.parameters;
    if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters)) {
      throw new PluginRegistrationError(
        `registerTool("${spec.name}"): parameters must be a JSON Schema object.`,
      );
    }
    try {
      schemaChecker.compile(parameters);
    } catch (error) {
      throw new PluginRegistrationError(
        `registerTool("${spec.name}"): parameters is not a valid JSON Schema (${describe(error)}).`,
      );
    }
    const handler = spec.handler.bind(spec);
    deps.tools.register({
      pluginId,
      name: spec.name,
      toolset: typeof spec.toolset === "string" && spec.toolset ? spec.toolset : pluginId,
      description: typeof spec.description === "string" ? spec.description : "",
      parameters: structuredClone(parameters),
      handler: wrap(`tool ${spec.name}`, "plugin_tool_error", handler),
    });
  };

  const logAt =
    (level: LogLevel) =>
    (message: string, fields?: LogFields): void => {
      if (!active) return;
      deps.log.write(level, "plugin_log", {
        plugin: pluginId,
        message: String(message),
        ...logFields(fields),
      });
    };
  const log: PluginLog = Object.freeze({ info: logAt("INFO"), warn: logAt("WARN"), error: logAt("ERROR") });

  const state: PluginState = Object.freeze({
    get: <T>(key: string) => deps.state.get<T>(key),
    set: (key: string, value: Parameters<PluginState["set"]>[1]) => {
      assertActive();
      deps.state.set(key, value);
    },
    delete: (key: string) => {
      assertActive();
      return deps.state.delete(key);
    },
  });

  const ctx: PluginContext = Object.freeze({
    pluginId,
    llm: deps.llm(assertActive),
    state,
    registerCommand,
    registerHook,
    registerTool,
    registerAuxiliaryTask: (key: string, spec: AuxiliaryTaskSpec) => {
      assertActive();
      deps.registerAuxiliaryTask(key, spec);
    },
    hasCapability: (id: string) => active && deps.hasCapability(String(id)),
    redact: (text: string, options?: { force?: boolean }) =>
      deps.redact(String(text), { force: options?.force === true }),
    log,
  });

  return {
    ctx,
    revoke: () => {
      active = false;
    },
  };
}
