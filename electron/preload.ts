/**
 * The app window's bridge: one function per method of the table, plus the event channel. Nothing
 * generic is exposed — a method that isn't in the table can't be called from the page.
 */
import { contextBridge, ipcRenderer } from "electron";
import { ipcChannels, methodNames } from "./host/rpc/contract.js";
import { isPluginMethod } from "./host/rpc/plugin-names.js";
import type { EventFrame, ResponseFrame } from "./host/rpc/frames.js";

type MethodFn = (params: unknown) => Promise<ResponseFrame>;

const methods: Record<string, MethodFn> = Object.freeze(
  Object.fromEntries(
    methodNames.map((method): [string, MethodFn] => [
      method,
      (params) =>
        ipcRenderer.invoke(ipcChannels.request, { method, params: params ?? {} }) as Promise<ResponseFrame>,
    ]),
  ),
);

contextBridge.exposeInMainWorld("hermes", {
  methods,
  /** Plugin pages' calls (docs/contract.md §8), relayed by the app after it scoped them to the page's plugin. */
  pluginRequest(method: unknown, params: unknown): Promise<ResponseFrame> {
    if (typeof method !== "string" || !isPluginMethod(method)) {
      return Promise.reject(new Error("pluginRequest takes plugin.<id>.<method> names only."));
    }
    return ipcRenderer.invoke(ipcChannels.request, {
      method,
      params: params ?? {},
    }) as Promise<ResponseFrame>;
  },
  onEvent(listener: (frame: EventFrame) => void): () => void {
    const forward = (_event: unknown, frame: EventFrame) => listener(frame);
    ipcRenderer.on(ipcChannels.event, forward);
    return () => ipcRenderer.removeListener(ipcChannels.event, forward);
  },
});
