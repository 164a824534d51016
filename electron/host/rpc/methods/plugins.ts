import { Type } from "@sinclair/typebox";
import { method, noParams, params } from "../define.js";

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
  /** Present once the plugin was started (status loading, loaded, or failed after running). */
  runtime?: PluginRuntimeView;
  /** Its idle tasks (docs/contract.md §9.4) and what each last did; absent when it has none. */
  idleTasks?: PluginIdleTaskView[];
}

/** One idle task of a plugin, from its `plugin-data/<id>/idle-tasks.json` (`last_run`, `last_status`). */
export interface PluginIdleTaskView {
  name: string;
  /** Its schedule; null while the plugin is not running (only a running plugin registers it). */
  intervalHours: number | null;
  minIdleHours: number | null;
  /** A run is in progress now. */
  running: boolean;
  /** ISO time the last run started; null before its first run. */
  lastRun: string | null;
  lastStatus: "ok" | "error" | "timeout" | null;
  /** Why the last run failed; null after a run that went well. */
  lastError: string | null;
  /** Runs started since local midnight (docs/contract.md §9.4: a short interval shows here). */
  runsToday: number;
}

/** How a plugin's worker is doing (docs/contract.md §5.4). */
export type PluginRuntimeState = "running" | "not_responding" | "restarting" | "stopped";

export interface PluginRuntimeView {
  state: PluginRuntimeState;
  /** Restarts after a crash since the app started (or since the last `plugins.restart`). */
  restarts: number;
  /** The last crash's reason in plain words, with its time. */
  lastError: string | null;
  lastErrorAt: string | null;
  /** The worker's heap in use, from its last heartbeat. */
  memoryMb: number | null;
  /** Model tokens (input and output) spent since local midnight. */
  tokensToday: number;
  /** Calls into the plugin (commands, hooks, tools) since local midnight. */
  callsToday: number;
  /** The limits in force (`plugins.entries.<id>.limits`). */
  limits: { dailyTokens: number | null; heapMb: number };
}

/** A plugin slash command, for the composer's autocomplete. */
export interface PluginCommandView {
  name: string;
  description: string;
  argsHint: string;
  pluginId: string;
}

const pluginId = Type.String({ pattern: "^[a-z0-9_-]{1,64}$" });

export const pluginMethods = {
  "plugins.list": method(noParams).returns<{ plugins: PluginView[] }>(),
  "plugins.setEnabled": method(params({ id: pluginId, enabled: Type.Boolean() })).returns<{
    plugin: PluginView;
  }>(),
  "plugins.restart": method(params({ id: pluginId })).returns<{ plugin: PluginView }>(),
  "plugins.rescan": method(noParams).returns<{ plugins: PluginView[] }>(),
  "plugins.commands": method(noParams).returns<{ commands: PluginCommandView[] }>(),
  /** The consent screen's answer (docs/contract.md §7.2): the granted ids; an empty list declines. */
  "plugins.consent": method(
    params({ id: pluginId, grant: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 16 }) }),
  ).returns<{ plugin: PluginView }>(),
  /** Takes one grant back; the next call obeys. */
  "plugins.revoke": method(params({ id: pluginId, capability: Type.String({ maxLength: 64 }) })).returns<{
    plugin: PluginView;
  }>(),
  /**
   * A per-frame capability for one plugin page (docs/contract.md §8, §11): the frame's page socket
   * (web mode) and page serving accept it; it is bound to this plugin and session, opens sockets
   * only until `expiresAt` (ms since the epoch), and is never the app's token.
   */
  "plugins.pageSession": method(
    params({
      id: pluginId,
      sessionId: Type.Union([Type.String({ pattern: "^[A-Za-z0-9_.:-]{1,128}$" }), Type.Null()]),
    }),
  ).returns<{ token: string; expiresAt: number }>(),
  /** Revokes a page token (its frame went away) and closes the sockets opened with it. */
  "plugins.pageSessionEnd": method(params({ token: Type.String({ maxLength: 64 }) })).returns<{
    ended: boolean;
  }>(),
  /** Creates `<home>/plugins` when missing; `opened` is false where the platform cannot open it (web mode). */
  "plugins.openFolder": method(noParams).returns<{ path: string; opened: boolean }>(),
};
