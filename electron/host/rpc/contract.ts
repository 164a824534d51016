/**
 * The method table: the single source the router dispatches from, the renderer client is typed
 * from, and the preload exposes. A method that isn't here doesn't exist.
 */
import type { MethodSpec } from "./define.js";
import { backupMethods } from "./methods/backups.js";
import { eventMethods } from "./methods/events.js";
import { hostMethods } from "./methods/host-info.js";
import { mcpMethods } from "./methods/mcp.js";
import { memoryReviewMethods } from "./methods/memory-review.js";
import { modelMethods } from "./methods/model.js";
import { pluginMethods } from "./methods/plugins.js";
import { providerDiscoveryMethods } from "./methods/provider-discovery.js";
import { providerMethods } from "./methods/providers.js";
import { sessionMethods } from "./methods/sessions.js";
import { settingsImportMethods } from "./methods/settings-import.js";
import { settingsMethods } from "./methods/settings.js";

export const methodTable = {
  ...hostMethods,
  ...eventMethods,
  ...settingsMethods,
  ...settingsImportMethods,
  ...providerMethods,
  ...providerDiscoveryMethods,
  ...modelMethods,
  ...pluginMethods,
  ...sessionMethods,
  ...memoryReviewMethods,
  ...mcpMethods,
  ...backupMethods,
} as const;

export type MethodTable = typeof methodTable;
export type MethodName = keyof MethodTable;

type SpecTypes<S> = S extends MethodSpec<infer P, infer R> ? { params: P; result: R } : never;
export type ParamsOf<M extends MethodName> = SpecTypes<MethodTable[M]>["params"];
export type ResultOf<M extends MethodName> = SpecTypes<MethodTable[M]>["result"];

export const methodNames = Object.keys(methodTable) as MethodName[];

export const isMethodName = (name: string): name is MethodName =>
  Object.prototype.hasOwnProperty.call(methodTable, name);

/** IPC channel names shared by main.ts and preload.ts. */
export const ipcChannels = { request: "hermes:rpc", event: "hermes:event" } as const;
