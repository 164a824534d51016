/**
 * What the plugin manager is built from, and the errors its callers tell apart. Kept apart from the
 * manager so its parts (catalog, workers, reconciler) share one declaration of their inputs.
 */
import type { Clock } from "../clock.js";
import type { Settings, SettingsDocument } from "../config/config-schema.js";
import type { AgentLog } from "../logging/agent-log.js";
import type { AuxiliaryTaskRegistry } from "../models/auxiliary-tasks.js";
import type { Redact } from "../secrets/redaction.js";
import type { SideQuestions } from "./capabilities/side-question.js";
import type { CommandRegistry } from "./command-registry.js";
import type { HookRegistry } from "./hook-registry.js";
import type { IdleTaskScheduler } from "./idle/idle-scheduler.js";
import type { PluginRpcRegistry } from "./pages/rpc-registry.js";
import type { PluginBudgets } from "./plugin-budget.js";
import type { PluginLlmService } from "./plugin-llm.js";
import type { CallDeadlines, PluginForks } from "./runtime/ctx-host.js";
import type { PluginRuntime } from "./runtime/plugin-runtime.js";
import type { PluginEventSink } from "./runtime/worker-launch.js";
import type { ToolRegistry } from "./tool-registry.js";

/** A worker's heap cap when `plugins.entries.<id>.limits.heap_mb` is unset (docs/contract.md §5.4). */
export const DEFAULT_HEAP_MB = 256;

/** RPC reason `plugin_not_found` (docs/contract.md §11). */
export class PluginNotFoundError extends Error {
  override readonly name = "PluginNotFoundError";
  readonly reason = "plugin_not_found" as const;
}

/** A `ctx` call from a worker that is no longer the plugin's live one (disabled, or replaced). */
export class PluginInactiveError extends Error {
  override readonly name = "PluginInactiveError";
}

export interface PluginSettingsAccess {
  get(): Settings;
  document(): SettingsDocument;
  update(mutator: (draft: SettingsDocument) => SettingsDocument | void): void;
  onChange(listener: () => void): () => void;
}

export interface PluginManagerOptions {
  home: string;
  /** The app's bundled `plugins/` folder; null when the build has none. */
  bundledDir: string | null;
  settings: PluginSettingsAccess;
  commands: CommandRegistry;
  hooks: HookRegistry;
  tools: ToolRegistry;
  /** Auxiliary slots plugins register (docs/contract.md §6.3); a plugin's leave when it is disabled. */
  slots: AuxiliaryTaskRegistry;
  /** Idle tasks (docs/contract.md §9.4): a plugin's leave when it is disabled or stops. */
  idleTasks?: Pick<IdleTaskScheduler, "register" | "removePlugin">;
  /** A plugin's injected message (docs/contract.md §9.3); false when the chat does not exist. */
  injectMessage?(pluginId: string, sessionId: string, text: string): boolean;
  llm: PluginLlmService;
  budgets: PluginBudgets;
  runtime: PluginRuntime;
  redact: Redact;
  log: AgentLog;
  clock: Clock;
  registerTimeoutMs?: number;
  /** Delay before the first restart after a crash; doubles with each crash in the window. */
  restartBackoffMs?: number;
  deadlines?: Partial<CallDeadlines>;
  /** `ctx.sideQuestion` (docs/contract.md §7.3); absent = every side question answers null. */
  sideQuestions?: SideQuestions;
  /** `plugin.<id>.<method>` handlers (docs/contract.md §8); the manager makes its own when absent. */
  rpc?: PluginRpcRegistry;
  /** Where `ctx.emitToSession` events go (the host's event hub). */
  emitPluginEvent?: PluginEventSink;
  /** Told after every status change (the host turns it into a `plugins.changed` event). */
  onChange?: () => void;
  /**
   * An enabled plugin has capabilities awaiting consent (docs/contract.md §7.2): told when it is enabled,
   * when an update declares new ones, and at start (the host emits `plugin.consent_required`).
   */
  onConsentRequired?: (id: string, pendingCapabilities: string[]) => void;
  /** `ctx.forkSession`'s host half (docs/contract.md §7.4). */
  forks?: PluginForks;
}
