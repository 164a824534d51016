/**
 * What the plugin manager is built from, and the errors its callers tell apart. Kept apart from the
 * manager so its parts (catalog, workers, reconciler) share one declaration of their inputs.
 */
import type { Clock } from "../../clock.js";
import type { Settings, SettingsDocument } from "../../config/config-schema.js";
import type { PluginIdleTaskView } from "../../rpc/methods/plugins.js";
import type { PluginRpcRegistry } from "../pages/rpc-registry.js";
import type { WorkerServices } from "../runtime/host-half/worker-launch.js";

/** A worker's heap cap when `plugins.entries.<id>.limits.heap_mb` is unset (docs/contract.md §5.4). */
export const DEFAULT_HEAP_MB = 256;

/**
 * How many enabled plugins will run with the default heap cap: the plugin host starts that many
 * spare workers at once, while the host is still starting (runtime/plugin-host-main.ts).
 */
export function expectedDefaultWorkers(settings: Pick<PluginSettingsAccess, "get" | "document">): number {
  const { enabled, disabled } = settings.get().plugins;
  const entries = settings.document().plugins?.entries;
  return enabled.filter(
    (id) => !disabled.includes(id) && (entries?.[id]?.limits?.heap_mb ?? DEFAULT_HEAP_MB) === DEFAULT_HEAP_MB,
  ).length;
}

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

/**
 * What every plugin's worker is opened with passes through unchanged (`WorkerServices`); the rest
 * is the manager's own.
 */
export interface PluginManagerOptions extends Omit<WorkerServices, "rpc"> {
  /** The app's bundled `plugins/` folder; null when the build has none. */
  bundledDir: string | null;
  settings: PluginSettingsAccess;
  clock: Clock;
  registerTimeoutMs?: number;
  /** Delay before the first restart after a crash; doubles with each crash in the window. */
  restartBackoffMs?: number;
  /** `plugin.<id>.<method>` handlers (docs/contract.md §8); the manager makes its own when absent. */
  rpc?: PluginRpcRegistry;
  /** Told after every status change (the host turns it into a `plugins.changed` event). */
  onChange?: () => void;
  /**
   * An enabled plugin has capabilities awaiting consent (docs/contract.md §7.2): told when it is enabled,
   * when an update declares new ones, and at start (the host emits `plugin.consent_required`).
   */
  onConsentRequired?: (id: string, pendingCapabilities: string[]) => void;
  /** A plugin's idle tasks for its view (docs/contract.md §9.4); none when absent. */
  idleTaskViews?: (pluginId: string) => PluginIdleTaskView[];
}
