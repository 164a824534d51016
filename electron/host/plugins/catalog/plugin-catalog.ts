/**
 * The plugins the manager knows (docs/contract.md §5.1): what discovery found in the bundled and user
 * folders, one record each, whether settings want each one loaded, what `plugins.list` shows of it,
 * and the change notice after every status change. The other parts of the manager share this state.
 */
import type { PluginEntryDocument } from "../../config/config-schema.js";
import type { PluginView } from "../../rpc/methods/plugins.js";
import { discoverPlugins, type DiscoveredPlugin } from "./discovery.js";
import {
  DEFAULT_HEAP_MB,
  PluginNotFoundError,
  type PluginManagerOptions,
} from "../manager/plugin-manager-options.js";
import { runtimeView, type PluginRecord } from "./plugin-record.js";
import { pluginView } from "../manager/plugin-view.js";
import { CrashHistory } from "../runtime/crash-policy.js";

export class PluginCatalog {
  private records = new Map<string, PluginRecord>();
  private isClosed = false;

  constructor(
    private readonly options: PluginManagerOptions,
    readonly userDir: string,
  ) {}

  /** Once the manager closes, nothing is wanted any more and no crash restart is scheduled. */
  get closed(): boolean {
    return this.isClosed;
  }

  close(): void {
    this.isClosed = true;
  }

  get(id: string): PluginRecord | undefined {
    return this.records.get(id);
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  ids(): string[] {
    return [...this.records.keys()];
  }

  all(): PluginRecord[] {
    return [...this.records.values()];
  }

  entries(): [string, PluginRecord][] {
    return [...this.records];
  }

  require(id: string): PluginRecord {
    const record = this.records.get(id);
    if (!record)
      throw new PluginNotFoundError(`No plugin "${id}" is installed; press Rescan if you just added it.`);
    return record;
  }

  /** Reads the bundled and user folders; each plugin's warnings go to the agent log. */
  discover(): Map<string, DiscoveredPlugin> {
    const sources = [
      ...(this.options.bundledDir ? [{ source: "bundled" as const, dir: this.options.bundledDir }] : []),
      { source: "user" as const, dir: this.userDir },
    ];
    const found = new Map(discoverPlugins(sources).map((plugin) => [plugin.id, plugin]));
    for (const warning of [...found.values()].flatMap((p) => p.warnings.map((w) => ({ id: p.id, w })))) {
      this.options.log.write("WARN", "plugin_warning", { plugin: warning.id, warning: warning.w });
    }
    return found;
  }

  /** A plugin gone from its folder: its record goes (after it was unloaded). */
  remove(id: string): void {
    this.records.delete(id);
  }

  /** Records for the plugins not known yet (each starts disabled); kept in id order for `plugins.list`. */
  addNew(found: ReadonlyMap<string, DiscoveredPlugin>): void {
    for (const [id, plugin] of found) {
      if (!this.records.has(id)) {
        this.records.set(id, {
          found: plugin,
          status: "disabled",
          crashes: new CrashHistory(this.options.restartBackoffMs),
          runtime: { state: "running", restarts: 0, lastError: null, lastErrorAt: null },
          queue: Promise.resolve(),
        });
      }
    }
    this.records = new Map([...this.records].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** The plugin's `plugins.entries.<id>` (grants, limits), read anew at each use. */
  entry(id: string): PluginEntryDocument | undefined {
    return this.options.settings.document().plugins?.entries?.[id];
  }

  /** Every plugin's `plugins.entries.<id>` block from one read of the settings (a question about all plugins). */
  entryDocuments(): (id: string) => PluginEntryDocument | undefined {
    const entries = this.options.settings.document().plugins?.entries ?? {};
    return (id) => (Object.hasOwn(entries, id) ? entries[id] : undefined);
  }

  /** Whether `plugins.enabled` / `plugins.disabled` want it loaded (nothing is, once closed). */
  wanted(id: string): boolean {
    const { enabled, disabled } = this.options.settings.get().plugins;
    return !this.isClosed && enabled.includes(id) && !disabled.includes(id);
  }

  view(record: PluginRecord): PluginView {
    const entry = this.entry(record.found.id);
    const runtime = runtimeView(record, this.options.budgets, entry, DEFAULT_HEAP_MB);
    const view = pluginView(
      record.found,
      record.status,
      record.error,
      this.options.settings.get(),
      entry,
      runtime,
    );
    const idleTasks = this.options.idleTaskViews?.(record.found.id) ?? [];
    return idleTasks.length > 0 ? { ...view, idleTasks } : view;
  }

  /** Tells the host a status changed (it emits `plugins.changed`). */
  changed(): void {
    try {
      this.options.onChange?.();
    } catch {
      // A listener's failure must not leave a plugin half loaded.
    }
  }
}
