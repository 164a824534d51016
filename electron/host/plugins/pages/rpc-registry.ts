/**
 * The RPC methods plugins registered (docs/contract.md §8 `ctx.registerRpc`), by plugin then method name. Each
 * entry is a proxy that runs the handler in the plugin's own worker; a plugin registering the same
 * name again replaces its entry, and disabling the plugin removes all of its methods at once.
 */
import { pluginNameProblem } from "../../rpc/plugin-names.js";

export interface RpcCallContext {
  /** The session the calling page is shown with (`params.session_id`), or null for a script. */
  sessionId: string | null;
}

export type RpcInvoke = (params: Record<string, unknown>, context: RpcCallContext) => Promise<unknown>;

export class RpcMethodNameError extends Error {
  override readonly name = "RpcMethodNameError";
}

export class PluginRpcRegistry {
  private readonly byPlugin = new Map<string, Map<string, RpcInvoke>>();

  register(pluginId: string, method: string, invoke: RpcInvoke): void {
    const problem = pluginNameProblem("method", method);
    if (problem) throw new RpcMethodNameError(`registerRpc: ${problem}`);
    let methods = this.byPlugin.get(pluginId);
    if (!methods) this.byPlugin.set(pluginId, (methods = new Map()));
    methods.set(method, invoke);
  }

  get(pluginId: string, method: string): RpcInvoke | undefined {
    return this.byPlugin.get(pluginId)?.get(method);
  }

  /** Sorted, for messages and tests. */
  methods(pluginId: string): string[] {
    return [...(this.byPlugin.get(pluginId)?.keys() ?? [])].sort();
  }

  removePlugin(pluginId: string): void {
    this.byPlugin.delete(pluginId);
  }
}
