/**
 * A plugin's `ctx` inside its worker (docs/contract.md §5.2, §5.4): the same API as ever. `pluginId`,
 * `state.get/set/delete`, `hasCapability`, `redact` and `log` answer synchronously from mirrors
 * the host keeps current (state writes are sent on; the host writes the file atomically). The
 * `register*` members wait for the host's answer without yielding (`SYNC_CTX_CALLS`, doorbell.ts),
 * so a refusal (a command name or slot key another plugin holds) is a `PluginRegistrationError`
 * thrown in the call, during `register` and after; everything else is an asynchronous call.
 */
import type {
  AuxiliaryTaskSpec,
  CommandSpec,
  CompleteParams,
  CompleteStructuredParams,
  HookHandler,
  HookName,
  IdleTaskFn,
  IdleTaskOptionsInput,
  JsonValue,
  LogFields,
  PluginContext,
  PluginLog,
  PluginState,
  RpcHandler,
  ToolSpec,
} from "../../../../../plugins/sdk/types.js";
import { taskKeyProblem } from "../../../models/auxiliary-tasks.js";
import { idleTaskNameProblem, parseIdleTaskOptions } from "../../idle/idle-task-options.js";
import { pluginNameProblem } from "../../../rpc/plugin-names.js";
import { emitProblem, PluginEventError } from "../../pages/plugin-event-checks.js";
import { createRedactor } from "../../../secrets/redaction.js";
import { hookNames, isHookName } from "../../registries/hook-types.js";
import { injectMessageProblem, PluginInjectError } from "../../manager/inject-message.js";
import { assertJson } from "../../manager/plugin-state.js";
import type { CtxCalls, Mirror, PluginCalls, ResultFrame, SyncCtxMethod, WorkerInit } from "../boundary.js";
import type { Endpoint } from "../endpoint.js";
import { createWorkerForks, type WorkerForks } from "./worker-fork.js";

export class PluginRegistrationError extends Error {
  override readonly name = "PluginRegistrationError";
}

/** Blocks until the answer to call `id` arrived (doorbell.ts), or returns null after `timeoutMs`. */
export type AwaitAnswer = (id: number, timeoutMs: number) => ResultFrame | null;

/**
 * How long a synchronous registration waits for the host. The host answers one at once; a host
 * that does not answer in this long also sees the worker miss its heartbeats (5 s) and restarts it.
 */
const REGISTRATION_ANSWER_MS = 10_000;

type AnyHandler = (...args: unknown[]) => unknown;

export interface WorkerCtx {
  ctx: PluginContext;
  mirror: Mirror;
  /** Handlers by id, for `invoke`. */
  handlers: Map<string, AnyHandler>;
  /** The plugin's forks; the host's `forkUpdate` lands here. */
  forks: WorkerForks;
  /** Resolves when every state write sent so far was taken; rejects with the first refusal. */
  writesSettled(): Promise<void>;
}

const toolNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

/** What can cross the boundary of a value the host checks anyway (a function, say, cannot). */
function plainOrNull(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return null;
  }
}

export function createWorkerCtx(
  init: WorkerInit,
  endpoint: Endpoint<CtxCalls, PluginCalls>,
  awaitAnswer: AwaitAnswer,
): WorkerCtx {
  const mirror: Mirror = { ...init.mirror };
  const values: Record<string, JsonValue> = { ...init.state };
  const handlers = new Map<string, AnyHandler>();
  let nextHandler = 0;
  let inFlight: Promise<unknown>[] = [];
  const redactor = createRedactor({ knownKeys: () => [], enabled: () => mirror.redactSecrets });
  const forks = createWorkerForks(endpoint);

  /** A registration: the host's refusal is thrown here, in the plugin's own call. */
  const register = <K extends SyncCtxMethod>(method: K, params: CtxCalls[K]["params"]): void => {
    try {
      endpoint.callSync(
        method,
        params,
        (id) => awaitAnswer(id, REGISTRATION_ANSWER_MS),
        () =>
          new PluginRegistrationError(
            `${method}: the app did not answer within ${REGISTRATION_ANSWER_MS / 1000} s; try again.`,
          ),
      );
    } catch (error) {
      // The refused entry's handler is never invoked: drop it.
      if ("handlerId" in params) handlers.delete(params.handlerId);
      if (error instanceof PluginRegistrationError) throw error;
      const refusal = new PluginRegistrationError(error instanceof Error ? error.message : String(error));
      const reason = (error as { reason?: unknown }).reason;
      if (typeof reason === "string") Object.assign(refusal, { reason });
      throw refusal;
    }
  };

  /** Sends a write or an event; a refusal after `register` finished is logged, never lost. */
  const send = <K extends keyof CtxCalls & string>(method: K, params: CtxCalls[K]["params"]) => {
    const call = endpoint.call(method, params);
    inFlight.push(call);
    call.catch((error: unknown) => {
      if (method === "log") return;
      void endpoint
        .call("log", {
          level: "ERROR",
          message: `${method} refused: ${error instanceof Error ? error.message : String(error)}`,
          fields: {},
        })
        .catch(() => undefined);
    });
  };
  const keep = (kind: string, fn: AnyHandler, self: unknown): string => {
    const id = `${kind}:${++nextHandler}`;
    handlers.set(id, (...args) => fn.apply(self, args));
    return id;
  };

  const registerCommand = (spec: CommandSpec): void => {
    if (!spec || typeof spec.name !== "string" || typeof spec.handler !== "function") {
      throw new PluginRegistrationError("registerCommand needs {name, handler(rawArgs, context)}.");
    }
    register("registerCommand", {
      name: spec.name,
      description: typeof spec.description === "string" ? spec.description : "",
      argsHint: typeof spec.argsHint === "string" ? spec.argsHint : "",
      handlerId: keep("command", spec.handler as AnyHandler, spec),
    });
  };

  const registerHook = <H extends HookName>(name: H, fn: HookHandler<H>): void => {
    if (typeof name !== "string" || !isHookName(name)) {
      throw new PluginRegistrationError(
        `Unknown hook "${String(name)}"; use one of: ${hookNames.join(", ")}.`,
      );
    }
    if (typeof fn !== "function")
      throw new PluginRegistrationError(`registerHook("${name}") needs a function.`);
    register("registerHook", { name, handlerId: keep("hook", fn as AnyHandler, undefined) });
  };

  const registerTool = (spec: ToolSpec): void => {
    if (!spec || typeof spec.name !== "string" || !toolNamePattern.test(spec.name)) {
      throw new PluginRegistrationError("registerTool needs a name of 1 to 64 letters, digits, _ or -.");
    }
    if (typeof spec.handler !== "function") {
      throw new PluginRegistrationError(`registerTool("${spec.name}") needs handler(args, context).`);
    }
    const parameters = spec.parameters as unknown;
    if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters)) {
      throw new PluginRegistrationError(
        `registerTool("${spec.name}"): parameters must be a JSON Schema object.`,
      );
    }
    register("registerTool", {
      name: spec.name,
      toolset: typeof spec.toolset === "string" && spec.toolset ? spec.toolset : init.pluginId,
      description: typeof spec.description === "string" ? spec.description : "",
      parameters: structuredClone(parameters as Record<string, unknown>),
      handlerId: keep("tool", spec.handler as AnyHandler, spec),
    });
  };

  const registerAuxiliaryTask = (key: string, spec: AuxiliaryTaskSpec): void => {
    // Key rules are checked here too: a bad key needs no round trip to the host.
    const problem = taskKeyProblem(key);
    if (problem !== null) throw new PluginRegistrationError(problem);
    let plain: AuxiliaryTaskSpec;
    try {
      plain = structuredClone(spec ?? {});
    } catch {
      throw new PluginRegistrationError(`registerAuxiliaryTask("${key}"): the spec must be plain data.`);
    }
    register("registerAuxiliaryTask", { key, spec: plain });
  };

  /** Names of idle tasks whose `fn` still runs here: a run past its deadline is not joined by another. */
  const idleRunning = new Set<string>();
  const registerIdleTask = (name: string, fn: IdleTaskFn, options: IdleTaskOptionsInput): void => {
    const problem = idleTaskNameProblem(name);
    if (problem !== null) throw new PluginRegistrationError(problem);
    if (typeof fn !== "function")
      throw new PluginRegistrationError(`registerIdleTask("${name}") needs a function to run.`);
    const parsed = parseIdleTaskOptions(name, options);
    if (!parsed.ok) throw new PluginRegistrationError(parsed.problem);
    const guarded = async (context: unknown): Promise<null> => {
      if (idleRunning.has(name)) {
        throw new Error(
          `The idle task "${name}" is still running from an earlier start (past its deadline).`,
        );
      }
      idleRunning.add(name);
      try {
        await fn(context as Parameters<IdleTaskFn>[0]);
        return null; // what fn returns is not needed, and may not cross the boundary
      } finally {
        idleRunning.delete(name);
      }
    };
    register("registerIdleTask", {
      name,
      handlerId: keep("idle", guarded as AnyHandler, undefined),
      options: parsed.options,
    });
  };

  const registerRpc = (method: string, handler: RpcHandler): void => {
    const problem = pluginNameProblem("method", method);
    if (problem) throw new PluginRegistrationError(`registerRpc: ${problem}`);
    if (typeof handler !== "function")
      throw new PluginRegistrationError(`registerRpc("${method}") needs handler(params, {sessionId}).`);
    register("registerRpc", { method, handlerId: keep("rpc", handler as AnyHandler, undefined) });
  };

  const emitToSession = (sessionId: string, event: string, payload: Record<string, JsonValue>): void => {
    const problem = emitProblem(sessionId, event, payload);
    if (problem) throw new PluginEventError(`emitToSession: ${problem}`);
    send("emitToSession", { sessionId, event, payload: structuredClone(payload) });
  };

  const logAt =
    (level: "INFO" | "WARN" | "ERROR") =>
    (message: string, fields?: LogFields): void => {
      let plain: LogFields;
      try {
        plain = structuredClone(fields && typeof fields === "object" ? fields : {});
      } catch {
        plain = {};
      }
      send("log", { level, message: String(message), fields: plain });
    };
  const log: PluginLog = Object.freeze({ info: logAt("INFO"), warn: logAt("WARN"), error: logAt("ERROR") });

  const state: PluginState = Object.freeze({
    get: <T>(key: string) =>
      Object.prototype.hasOwnProperty.call(values, key) ? (structuredClone(values[key]) as T) : undefined,
    set: (key: string, value: JsonValue) => {
      if (typeof key !== "string" || key === "") throw new TypeError("ctx.state keys are non-empty strings");
      assertJson(value, key);
      values[key] = structuredClone(value);
      send("state.set", { key, value });
    },
    delete: (key: string) => {
      if (!Object.prototype.hasOwnProperty.call(values, key)) return false;
      delete values[key];
      send("state.delete", { key });
      return true;
    },
  });

  const ctx: PluginContext = Object.freeze({
    pluginId: init.pluginId,
    llm: Object.freeze({
      complete: (params: CompleteParams) => endpoint.call("llm.complete", params),
      completeStructured: (params: CompleteStructuredParams) =>
        endpoint.call("llm.completeStructured", params),
    }),
    state,
    registerCommand,
    registerHook,
    registerTool,
    registerAuxiliaryTask,
    registerIdleTask,
    injectMessage: (sessionId: string, text: string): Promise<boolean> => {
      const problem = injectMessageProblem(sessionId, text);
      if (problem !== null) return Promise.reject(new PluginInjectError(problem));
      return endpoint.call("injectMessage", { sessionId, text });
    },
    forkSession: forks.forkSession,
    registerRpc,
    emitToSession,
    hasCapability: (id: string) => mirror.capabilities[String(id)] === true,
    sideQuestion: (token: unknown, prompt: unknown, options?: unknown) =>
      endpoint.call("sideQuestion", { token, prompt, options: plainOrNull(options) }),
    redact: (text: string, options?: { force?: boolean }) =>
      redactor.redact(String(text), { force: options?.force === true }),
    log,
  });

  return {
    ctx,
    mirror,
    handlers,
    forks,
    async writesSettled() {
      const calls = inFlight;
      inFlight = [];
      await Promise.all(calls);
    },
  };
}
