import { method, noParams, type EmptyParams } from "../define.js";

export type PluginStatus = "loading" | "loaded" | "failed" | "disabled";

export interface PluginView {
  id: string;
  name: string;
  version: string;
  description: string;
  enabled: boolean;
  status: PluginStatus;
  /** Why the plugin failed (status "failed"). */
  error?: string;
  capabilities: { id: string; granted: boolean }[];
  pendingCapabilities: string[];
  pages: { id: string; title: string; url: string }[];
  /** Where it was found: the app's bundled folder or `<home>/plugins`. */
  source: "bundled" | "user";
  /** Manifest warnings (unknown keys, dropped capabilities) and id collisions. */
  warnings: string[];
}

/** A plugin slash command, for the composer's autocomplete. */
export interface PluginCommandView {
  name: string;
  description: string;
  argsHint: string;
  pluginId: string;
}

const pluginId = { type: "string", pattern: "^[a-z0-9_-]{1,64}$" };

export const pluginMethods = {
  "plugins.list": method<EmptyParams, { plugins: PluginView[] }>(noParams),
  "plugins.setEnabled": method<{ id: string; enabled: boolean }, { plugin: PluginView }>({
    type: "object",
    additionalProperties: false,
    required: ["id", "enabled"],
    properties: { id: pluginId, enabled: { type: "boolean" } },
  }),
  "plugins.rescan": method<EmptyParams, { plugins: PluginView[] }>(noParams),
  "plugins.commands": method<EmptyParams, { commands: PluginCommandView[] }>(noParams),
  /** Creates `<home>/plugins` when missing; `opened` is false where the platform cannot open it (web mode). */
  "plugins.openFolder": method<EmptyParams, { path: string; opened: boolean }>(noParams),
};
