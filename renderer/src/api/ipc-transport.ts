/**
 * Desktop transport: the preload's bridge (`window.hermes`), one function per contract method.
 * IPC has no connection to lose, so the status is always "connected".
 */
import type { MethodName, ParamsOf, ResultOf } from "../../../electron/host/rpc/contract.js";
import type { EventFrame, ResponseFrame } from "../../../electron/host/rpc/frames.js";
import { readHostEvent } from "../../../electron/host/rpc/events.js";
import { ListenerSet, type HermesClient, type HostEvent } from "./client.js";
import { HermesRpcError } from "./rpc-error.js";

/** What electron/preload.ts exposes as `window.hermes`. */
export interface HermesBridge {
  methods: Readonly<Record<string, (params: unknown) => Promise<ResponseFrame>>>;
  onEvent(listener: (frame: EventFrame) => void): () => void;
}

export function createIpcClient(bridge: HermesBridge): HermesClient {
  const events = new ListenerSet<HostEvent>();
  const stopForwarding = bridge.onEvent((frame) => {
    const event = frame && frame.method === "event" ? readHostEvent(frame.params) : null;
    if (event) events.emit(event);
  });

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
      let frame: ResponseFrame;
      try {
        frame = await invoke(params);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        throw new HermesRpcError("connection_lost", `The call "${method}" did not reach the app: ${why}`);
      }
      if (!frame || typeof frame !== "object") {
        throw new HermesRpcError("malformed_response", `The app sent no answer to "${method}".`);
      }
      if ("error" in frame) throw HermesRpcError.fromErrorObject(frame.error);
      return frame.result as ResultOf<M>;
    },
    onEvent: (listener) => events.add(listener),
    onStatusChange: () => () => undefined,
    close() {
      stopForwarding();
      events.clear();
    },
  };
}
