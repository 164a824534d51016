/**
 * A HermesClient whose methods are answered by the test's own functions, for component tests
 * that need exact control over timing and failures. Records every call and can push events.
 */
import type { MethodName, ParamsOf, ResultOf } from "../../electron/host/rpc/contract.js";
import type { ConnectionStatus, HermesClient, HostEvent } from "../../renderer/src/api/client.js";
import { HermesRpcError } from "../../renderer/src/api/rpc-error.js";
import { defaultSettings, type Settings } from "../../electron/host/rpc/methods/settings.js";

export type Handlers = { [M in MethodName]?: (params: ParamsOf<M>) => Promise<ResultOf<M>> | ResultOf<M> };

export interface FakeClient extends HermesClient {
  calls: Array<{ method: MethodName; params: unknown }>;
  callsOf(method: MethodName): unknown[];
  emit(event: HostEvent): void;
  setStatus(status: ConnectionStatus): void;
}

export function fakeClient(handlers: Handlers): FakeClient {
  const eventListeners = new Set<(event: HostEvent) => void>();
  const statusListeners = new Set<(status: ConnectionStatus) => void>();
  let status: ConnectionStatus = "connected";
  const calls: FakeClient["calls"] = [];
  return {
    calls,
    callsOf: (method) => calls.filter((c) => c.method === method).map((c) => c.params),
    get status() {
      return status;
    },
    async call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
      calls.push({ method, params });
      const handler = handlers[method] as
        ((p: ParamsOf<M>) => Promise<ResultOf<M>> | ResultOf<M>) | undefined;
      if (!handler) throw new HermesRpcError("method_not_found", `The test did not expect "${method}".`);
      return handler(params);
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => void eventListeners.delete(listener);
    },
    async callPlugin(method) {
      throw new HermesRpcError("method_not_found", `The test did not expect "${method}".`);
    },
    onPluginEvent: () => () => undefined,
    onStatusChange(listener) {
      statusListeners.add(listener);
      return () => void statusListeners.delete(listener);
    },
    emit: (event) => eventListeners.forEach((listener) => listener(event)),
    setStatus(next) {
      status = next;
      statusListeners.forEach((listener) => listener(next));
    },
    close: () => undefined,
  };
}

/** A promise the test settles by hand, to hold a call in flight. */
export function deferred<T>(): {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

type SettingsPatch = { [K in keyof Settings]?: Partial<Settings[K]> };

/** What `settings.get` answers: the effective settings, i.e. the defaults with the test's blocks over them. */
export function settingsWith(patch: SettingsPatch = {}): Settings {
  const settings = defaultSettings();
  for (const key of Object.keys(patch) as Array<keyof Settings>) {
    Object.assign(settings[key], patch[key]);
  }
  return settings;
}
