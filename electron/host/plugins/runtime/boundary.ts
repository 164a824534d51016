/**
 * The plugin boundary, written once (docs/contract.md §5.4). Two tables name every call that crosses it:
 * `CtxCalls` (a plugin's worker asks the host: `ctx.llm`, state writes, logs, `register*`) and
 * `PluginCalls` (the host asks a worker: run register, invoke a handler, answer a heartbeat).
 * The worker's `ctx` and the host's handlers are both typed from these tables, so a new `ctx`
 * member is one entry here, one handler in `ctx-host.ts` and one member in `worker-ctx.ts`;
 * the compiler refuses a host that forgets its half.
 *
 * Everything that crosses is structured-cloned (worker messages; the plugin host's IPC channel
 * carries the same values, see wire-codec.ts): functions never cross, a handler is an id the worker keeps.
 */
import type {
  AuxiliaryTaskSpec,
  CompleteParams,
  CompleteResult,
  CompleteStructuredParams,
  ForkOutcome,
  HookName,
  IdleTaskOptionsInput,
  JsonValue,
  LogFields,
  StructuredResult,
} from "../../../../plugins/sdk/types.js";

interface Call<P, R> {
  params: P;
  result: R;
}

/** Worker → host: the members of `ctx` that need the host. */
export interface CtxCalls {
  /** The worker booted and can take `register` (its own start-up does not count against register's 10 s). */
  ready: Call<Record<string, never>, null>;
  "llm.complete": Call<CompleteParams, CompleteResult>;
  "llm.completeStructured": Call<CompleteStructuredParams, StructuredResult>;
  "state.set": Call<{ key: string; value: JsonValue }, null>;
  "state.delete": Call<{ key: string }, boolean>;
  log: Call<{ level: "INFO" | "WARN" | "ERROR"; message: string; fields: LogFields }, null>;
  registerCommand: Call<{ name: string; description: string; argsHint: string; handlerId: string }, null>;
  registerHook: Call<{ name: HookName; handlerId: string }, null>;
  registerTool: Call<
    {
      name: string;
      toolset: string;
      description: string;
      parameters: Record<string, unknown>;
      handlerId: string;
    },
    null
  >;
  registerAuxiliaryTask: Call<{ key: string; spec: AuxiliaryTaskSpec }, null>;
  /** docs/contract.md §9.4: `fn` stays in the worker as `handlerId`; the host schedules it. */
  registerIdleTask: Call<{ name: string; handlerId: string; options: IdleTaskOptionsInput }, null>;
  /** docs/contract.md §9.3: true when the chat took the message (it then waits for its background work). */
  injectMessage: Call<{ sessionId: string; text: string }, boolean>;
  // ctx.forkSession (docs/contract.md §7.4): the start answers the fork's id and first state (null: nothing
  // started); later states come back as PluginCalls `forkUpdate`; the handle's cancel() is the second.
  forkSession: Call<{ token: unknown; prompt: unknown; options: unknown }, ForkStart | null>;
  "forkSession.cancel": Call<{ forkId: string }, null>;
  /** docs/contract.md §8: a `plugin.<id>.<method>` handler; it runs here in the worker through `invoke`. */
  registerRpc: Call<{ method: string; handlerId: string }, null>;
  /** docs/contract.md §8: `plugin.<id>.<event>` to the clients showing the session. */
  emitToSession: Call<{ sessionId: string; event: string; payload: Record<string, JsonValue> }, null>;
  /** `ctx.sideQuestion` (docs/contract.md §7.3); arguments cross as given, the host checks them. */
  sideQuestion: Call<{ token: unknown; prompt: unknown; options: unknown }, string | null>;
}

/** Host → worker. */
export interface PluginCalls {
  /** Imports the plugin's main module and runs `register(ctx)`. */
  register: Call<{ file: string; main: string }, null>;
  /** Runs a handler the plugin registered (command, hook, tool, …) with its arguments. */
  invoke: Call<{ handlerId: string; args: unknown[] }, unknown>;
  /** A fork's handle changed (docs/contract.md §7.4): its outcome, result and actions so far. */
  forkUpdate: Call<{ forkId: string; state: ForkState }, null>;
  /** The heartbeat; the answer carries the worker's heap in use. */
  ping: Call<Record<string, never>, { heapUsedMb: number }>;
}

/** What a fork's handle shows; `done` is `outcome !== "running"`. */
export interface ForkState {
  outcome: ForkOutcome;
  result: string | null;
  actions: string[];
  cancelled: boolean;
}

export interface ForkStart {
  forkId: string;
  state: ForkState;
}

export type CtxMethod = keyof CtxCalls;
export type PluginMethod = keyof PluginCalls;

/**
 * The `CtxCalls` a worker waits for without yielding (docs/contract.md §5.4: synchronous members
 * stay synchronous): the host's refusal (a command name or slot key another plugin holds) is thrown
 * in the plugin's own call, where it can catch it, during `register` and after.
 */
export const SYNC_CTX_CALLS = [
  "registerCommand",
  "registerHook",
  "registerTool",
  "registerAuxiliaryTask",
  "registerIdleTask",
  "registerRpc",
] as const satisfies readonly CtxMethod[];
export type SyncCtxMethod = (typeof SYNC_CTX_CALLS)[number];

/** What the worker's synchronous members read, kept current by the host (docs/contract.md §5.4). */
export interface Mirror {
  /** Every capability id the host knows, granted or not. */
  capabilities: Record<string, boolean>;
  /** `security.redact_secrets`. */
  redactSecrets: boolean;
}

export interface WorkerInit {
  pluginId: string;
  state: Record<string, JsonValue>;
  mirror: Mirror;
}

/** An error as it crosses: its name (plugins branch on it), message, and the reason if any. */
export interface WireError {
  name: string;
  message: string;
  reason?: string;
  /** PluginLlmSchemaError carries the parsed reply and its text. */
  parsed?: unknown;
  text?: string;
}

/** The answer to one call. */
export type ResultFrame =
  | { kind: "result"; id: number; ok: true; value: unknown }
  | { kind: "result"; id: number; ok: false; error: WireError };

/** One frame on a plugin's channel, either direction. */
export type Frame =
  | { kind: "call"; id: number; method: string; params: unknown }
  | ResultFrame
  | { kind: "mirror"; mirror: Partial<Mirror> };

/**
 * Plugin host → a worker, once: who it is. A worker may be started before its plugin is known (a
 * spare started while the host is still starting), so it learns its identity from this message.
 */
export interface WorkerBoot {
  kind: "init";
  init: WorkerInit;
  /**
   * One Int32 the plugin host adds 1 to (and notifies) after each frame it posts to the worker, so
   * a synchronous call (`SYNC_CTX_CALLS`) can sleep in `Atomics.wait` until its answer may be there.
   */
  doorbell: SharedArrayBuffer;
}

/** Host → plugin host process. */
export type ToPluginHost =
  | { kind: "start"; pluginId: string; heapMb: number; init: WorkerInit }
  | { kind: "stop"; pluginId: string }
  | { kind: "frame"; pluginId: string; frame: Frame };

/** Plugin host process → host. */
export type FromPluginHost =
  | { kind: "ready" }
  | { kind: "frame"; pluginId: string; frame: Frame }
  /** `refused`: the worker found itself unconfined and ran nothing (worker-confinement.ts); restarting cannot help. */
  | { kind: "exited"; pluginId: string; reason: string; refused?: true };

export function toWireError(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const wire: WireError = { name: error.name, message: error.message };
  const extra = error as Error & { reason?: unknown; parsed?: unknown; text?: unknown };
  if (typeof extra.reason === "string") wire.reason = extra.reason;
  if (extra.parsed !== undefined) wire.parsed = cloneable(extra.parsed);
  if (typeof extra.text === "string") wire.text = extra.text;
  return wire;
}

/** An Error carrying the wire error's name, reason and extras, for code that branches on them. */
export function fromWireError(wire: WireError): Error {
  const error = new Error(String(wire.message));
  Object.defineProperty(error, "name", { value: String(wire.name), enumerable: false });
  if (wire.reason !== undefined) Object.assign(error, { reason: wire.reason });
  if (wire.parsed !== undefined) Object.assign(error, { parsed: wire.parsed });
  if (wire.text !== undefined) Object.assign(error, { text: wire.text });
  return error;
}

function cloneable(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return null;
  }
}
