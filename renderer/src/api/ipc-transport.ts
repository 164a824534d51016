/**
 * Desktop transport: the preload's bridge (`window.hermes`), one function per contract method.
 * IPC has no connection to lose, so the status is always "connected".
 */
import type { MethodName, ParamsOf, ResultOf } from "../../../electron/host/rpc/contract.js";
import type { EventFrame, ResponseFrame } from "../../../electron/host/rpc/frames.js";
import { readHostEvent } from "../../../electron/host/rpc/events.js";
import { isPluginMethod, readPluginEvent } from "../../../electron/host/rpc/plugin-names.js";
import { ListenerSet, type HermesClient, type HostEvent, type PluginEvent } from "./client.js";
import { HermesRpcError } from "./rpc-error.js";

/** What electron/preload.ts exposes as `window.hermes`. */
export interface HermesBridge {
  methods: Readonly<Record<string, (params: unknown) => Promise<ResponseFrame>>>;
  /** `plugin.<id>.<method>` only (the preload refuses any other name). */
  pluginRequest(method: string, params: unknown): Promise<ResponseFrame>;
  onEvent(listener: (frame: EventFrame) => void): () => void;
}

export function createIpcClient(bridge: HermesBridge): HermesClient {
  const events = new ListenerSet<HostEvent>();
  const pluginEvents = new ListenerSet<PluginEvent>();
  const stopForwarding = bridge.onEvent((frame) => {
    if (!frame || frame.method !== "event") return;
    const event = readHostEvent(frame.params);
    if (event) return events.emit(event);
    const pluginEvent = readPluginEvent(frame.params);
    if (pluginEvent) pluginEvents.emit(pluginEvent);
  });

  const answer = async (method: string, send: () => Promise<ResponseFrame>): Promise<unknown> => {
    let frame: ResponseFrame;
    try {
      frame = await send();
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new HermesRpcError("connection_lost", `The call "${method}" did not reach the app: ${why}`);
    }
    if (!frame || typeof frame !== "object") {
      throw new HermesRpcError("malformed_response", `The app sent no answer to "${method}".`);
    }
    if ("error" in frame) throw HermesRpcError.fromErrorObject(frame.error);
    return frame.result;
  };

  return {
    status: "connected",
    async call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
      const invoke = bridge.methods[method];
      if (!invoke) {
        throw new HermesRpcError(
          "method_not_found",
          `This window cannot call "${method}"; restart Hermes Desktop.`,
        );
      }
      return (await answer(method, () => invoke(params))) as ResultOf<M>;
    },
    async callPlugin(method, params) {
      if (!isPluginMethod(method)) {
        throw new HermesRpcError("method_not_found", `"${method}" is not a plugin method.`);
      }
      return answer(method, () => bridge.pluginRequest(method, params));
    },
    onEvent: (listener) => events.add(listener),
    onPluginEvent: (listener) => pluginEvents.add(listener),
    onStatusChange: () => () => undefined,
    close() {
      stopForwarding();
      events.clear();
      pluginEvents.clear();
    },
  };
}
