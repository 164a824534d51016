/**
 * Dispatch of `plugin.<id>.<method>` (docs/contract.md §8, §11): the plugin must be loaded
 * (`plugin_not_found`), the method registered (`method_not_found`), params an object whose
 * `session_id`, if any, is a session id (`invalid_params`). The handler runs in the plugin's worker
 * with the RPC deadline (60 s, `plugin_timeout`); a throw or an answer that is not JSON is
 * `plugin_rpc_failed`. Each plugin runs at most `maxInFlight` handlers at once; up to `maxQueued`
 * more wait their turn in arrival order, and past that a call is refused with `plugin_busy`.
 */
import { pluginFaultAdvice } from "../runtime/plugin-fault-advice.js";
import { RpcError } from "../../rpc/errors.js";
import { pluginIdPattern, pluginNameProblem, splitPluginMethod } from "../../rpc/plugin-names.js";
import { isPlainObject, jsonProblem } from "./json-check.js";
import { sessionIdPattern } from "./plugin-event-checks.js";
import type { PluginRpcRegistry } from "./rpc-registry.js";

/** Handlers of one plugin running at once (a page rarely needs more; a hung one can't pile up). */
export const MAX_RPC_IN_FLIGHT = 8;
/** Calls of one plugin waiting for a free lane before new ones are refused as busy. */
export const MAX_RPC_QUEUED = 32;

export interface PluginRpcDispatchOptions {
  registry: PluginRpcRegistry;
  /** Whether the plugin is enabled and loaded right now. */
  isLoaded(pluginId: string): boolean;
  maxInFlight?: number;
  maxQueued?: number;
}

interface Lanes {
  running: number;
  waiting: Array<() => void>;
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class PluginRpcDispatcher {
  private readonly lanes = new Map<string, Lanes>();
  private readonly maxInFlight: number;
  private readonly maxQueued: number;

  constructor(private readonly options: PluginRpcDispatchOptions) {
    this.maxInFlight = options.maxInFlight ?? MAX_RPC_IN_FLIGHT;
    this.maxQueued = options.maxQueued ?? MAX_RPC_QUEUED;
  }

  async call(fullMethod: string, params: unknown): Promise<unknown> {
    const split = splitPluginMethod(fullMethod);
    if (!split) {
      throw new RpcError(
        "method_not_found",
        `"${fullMethod}" is not a plugin method; call plugin.<plugin id>.<method>.`,
      );
    }
    const { pluginId, method } = split;
    if (!pluginIdPattern.test(pluginId) || !this.options.isLoaded(pluginId)) {
      throw new RpcError(
        "plugin_not_found",
        `No plugin "${pluginId}" is enabled; enable it in Settings → Plugins first.`,
      );
    }
    const invoke = pluginNameProblem("method", method)
      ? undefined
      : this.options.registry.get(pluginId, method);
    if (!invoke) {
      const known = this.options.registry.methods(pluginId);
      throw new RpcError(
        "method_not_found",
        `Plugin '${pluginId}' has no method "${method}"` +
          (known.length ? ` (it has: ${known.join(", ")}).` : " (it registered none)."),
      );
    }
    const input = params ?? {};
    if (!isPlainObject(input)) {
      throw new RpcError("invalid_params", `params of ${fullMethod} must be a JSON object.`);
    }
    const sessionId = input.session_id;
    if (sessionId !== undefined && (typeof sessionId !== "string" || !sessionIdPattern.test(sessionId))) {
      throw new RpcError("invalid_params", "params.session_id must be a session id (a string).", {
        key: "session_id",
      });
    }
    const release = await this.acquire(pluginId, fullMethod);
    let value: unknown;
    try {
      value = await invoke(input, { sessionId: sessionId ?? null });
    } catch (error) {
      const reason = (error as { reason?: unknown }).reason;
      if (reason === "plugin_timeout" || reason === "plugin_unresponsive") {
        throw new RpcError(reason, describe(error));
      }
      throw new RpcError(
        "plugin_rpc_failed",
        `${fullMethod} failed: ${describe(error)}. ${pluginFaultAdvice(pluginId)}`,
      );
    } finally {
      release();
    }
    // A handler that returns nothing answers null; anything else must be JSON.
    if (value === undefined) return null;
    const problem = jsonProblem(value, "the result");
    if (problem) {
      throw new RpcError(
        "plugin_rpc_failed",
        `${fullMethod} answered with something that is not JSON: ${problem}.`,
      );
    }
    return value;
  }

  /** Waits for a free lane of the plugin; returns the function that frees it. */
  private async acquire(pluginId: string, fullMethod: string): Promise<() => void> {
    let lanes = this.lanes.get(pluginId);
    if (!lanes) this.lanes.set(pluginId, (lanes = { running: 0, waiting: [] }));
    if (lanes.running >= this.maxInFlight) {
      if (lanes.waiting.length >= this.maxQueued) {
        throw new RpcError(
          "plugin_busy",
          `Plugin '${pluginId}' is busy (${this.maxInFlight} calls running, ${this.maxQueued} waiting); ${fullMethod} was not run. Try again shortly.`,
        );
      }
      await new Promise<void>((resolve) => lanes.waiting.push(resolve));
    } else {
      lanes.running += 1;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = lanes.waiting.shift();
      // The lane passes straight to the next caller; otherwise it is free.
      if (next) next();
      else lanes.running -= 1;
    };
  }
}
