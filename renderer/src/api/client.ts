/**
 * The renderer's single way to talk to the host. Both transports (Electron IPC, web-mode
 * WebSocket) implement this, typed from the contract's method table.
 */
import type { MethodName, ParamsOf, ResultOf } from "../../../electron/host/rpc/contract.js";
import type { HostEvent } from "../../../electron/host/rpc/events.js";
import type { PluginEvent } from "../../../electron/host/rpc/plugin-names.js";

/** A host push: `{type, session_id, payload}` of an event frame, typed by the contract's event table. */
export type { HostEvent, PluginEvent };

/** "connecting" only before the first connection; "reconnecting" after one was lost. */
export type ConnectionStatus = "connecting" | "connected" | "reconnecting";

export type Unsubscribe = () => void;

export interface HermesClient {
  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  onEvent(listener: (event: HostEvent) => void): Unsubscribe;
  /** `plugin.<id>.<method>` (docs/contract.md §8): not in the method table, so untyped; for plugin pages. */
  callPlugin(method: string, params: Record<string, unknown>): Promise<unknown>;
  /** `plugin.<id>.<event>` session events, for the plugin pages showing that session. */
  onPluginEvent(listener: (event: PluginEvent) => void): Unsubscribe;
  readonly status: ConnectionStatus;
  onStatusChange(listener: (status: ConnectionStatus) => void): Unsubscribe;
  close(): void;
}

/** Calls listeners in turn; one throwing listener must not starve the others. */
export class ListenerSet<T> {
  private readonly listeners = new Set<(value: T) => void>();

  add(listener: (value: T) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  emit(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (err) {
        console.error("Hermes client listener failed", err);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
