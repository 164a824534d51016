/**
 * The plugin runtime's owner: discovery, load isolation, statuses and enable/disable at once
 * (SPEC §5.1). A plugin loads only when its id is in `plugins.enabled` and not in
 * `plugins.disabled`; one that fails is marked failed with its reason and nothing else is touched.
 * Disabling revokes its ctx and removes its commands, hooks and tools from every registry.
 */
import path from "node:path";
import type { Clock } from "../clock.js";
import type { Settings, SettingsDocument } from "../config/config-schema.js";
import type { AgentLog } from "../logging/agent-log.js";
import type { Redact } from "../secrets/redaction.js";
import { isCapabilityGranted, pendingCapabilities } from "./capabilities.js";
import type { CommandRegistry } from "./command-registry.js";
import { createPluginContext, type ContextHandle } from "./context.js";
import type { PluginCommandView, PluginView } from "../rpc/methods/plugins.js";
import { discoverPlugins, type DiscoveredPlugin } from "./discovery.js";
import type { HookRegistry } from "./hook-registry.js";
import { loadPlugin, REGISTER_TIMEOUT_MS } from "./loader.js";
import type { PluginLlmService } from "./plugin-llm.js";
import { FilePluginState } from "./plugin-state.js";
import type { ToolRegistry } from "./tool-registry.js";
import type { AuxiliaryTaskRegistry } from "../models/auxiliary-tasks.js";

export type { PluginCommandView, PluginStatus, PluginView } from "../rpc/methods/plugins.js";

export class PluginNotFoundError extends Error {
  override readonly name = "PluginNotFoundError";
  readonly reason = "plugin_not_found" as const;
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
  /** Auxiliary slots plugins register (SPEC §6.3); a plugin's leave when it is disabled. */
  slots: AuxiliaryTaskRegistry;
  llm: PluginLlmService;
  redact: Redact;
  log: AgentLog;
  clock: Clock;
  registerTimeoutMs?: number;
  /** Told after every status change (the host turns it into a `plugins.changed` event). */
  onChange?: () => void;
}

interface PluginRecord {
  found: DiscoveredPlugin;
  status: PluginView["status"];
  error?: string;
  handle?: ContextHandle;
  /** Operations on one plugin run one after another; different plugins load side by side. */
  queue: Promise<void>;
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class PluginManager {
  readonly userDir: string;
  private records = new Map<string, PluginRecord>();
  private unwatch: (() => void) | null = null;
  private closed = false;
  private started: Promise<void> | null = null;

  constructor(private readonly options: PluginManagerOptions) {
    this.userDir = path.join(options.home, "plugins");
  }

  /** Discovers plugins and loads the enabled ones; hand edits of `plugins.*` are followed after this. */
  start(): Promise<void> {
    this.started ??= (async () => {
      this.unwatch = this.options.settings.onChange(() => void this.reconcile());
      await this.rescan();
    })();
    return this.started;
  }

  /** Resolves once the first scan has settled every plugin (loaded, failed or disabled). */
  ready(): Promise<void> {
    return this.started ?? Promise.resolve();
  }

  list(): PluginView[] {
    return [...this.records.values()].map((record) => this.view(record));
  }

  get(id: string): PluginView {
    return this.view(this.require(id));
  }

  commands(): PluginCommandView[] {
    return this.options.commands
      .list()
      .map(({ name, description, argsHint, pluginId }) => ({ name, description, argsHint, pluginId }));
  }

  async setEnabled(id: string, enabled: boolean): Promise<PluginView> {
    const record = this.require(id);
    this.options.settings.update((doc) => {
      const plugins = (doc.plugins ??= {});
      const without = (list: string[] | undefined) => (list ?? []).filter((item) => item !== id);
      plugins.enabled = enabled ? [...without(plugins.enabled), id] : without(plugins.enabled);
      if (enabled && plugins.disabled?.includes(id)) plugins.disabled = without(plugins.disabled);
    });
    if (!enabled && record.found.kind === "valid") {
      // At once, even while a register is still running: its ctx is revoked and everything it
      // registered goes now; the load in flight then ends as disabled (see load).
      if (record.status !== "disabled") this.unload(record, "disabled");
      return this.view(record);
    }
    // Re-enabling a failed plugin is the way to retry it.
    await this.enqueue(record, () => this.settle(record, { retry: enabled }));
    return this.view(record);
  }

  /** Reads the plugin folders again: new ones appear, removed ones go, changed ones reload. */
  async rescan(): Promise<PluginView[]> {
    const sources = [
      ...(this.options.bundledDir ? [{ source: "bundled" as const, dir: this.options.bundledDir }] : []),
      { source: "user" as const, dir: this.userDir },
    ];
    const found = new Map(discoverPlugins(sources).map((plugin) => [plugin.id, plugin]));
    for (const warning of [...found.values()].flatMap((p) => p.warnings.map((w) => ({ id: p.id, w })))) {
      this.options.log.write("WARN", "plugin_warning", { plugin: warning.id, warning: warning.w });
    }
    const work: Promise<void>[] = [];
    for (const [id, record] of this.records) {
      const next = found.get(id);
      if (next && JSON.stringify(next) === JSON.stringify(record.found)) continue;
      work.push(
        this.enqueue(record, async () => {
          this.unload(record, "disabled");
          if (!next) this.records.delete(id);
          else record.found = next;
        }),
      );
    }
    await Promise.all(work);
    for (const [id, plugin] of found) {
      if (!this.records.has(id))
        this.records.set(id, { found: plugin, status: "disabled", queue: Promise.resolve() });
    }
    this.records = new Map([...this.records].sort(([a], [b]) => a.localeCompare(b)));
    await this.reconcile();
    return this.list();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unwatch?.();
    await Promise.all(
      [...this.records.values()].map((r) => this.enqueue(r, async () => this.unload(r, "disabled"))),
    );
  }

  /** Brings every plugin in line with `plugins.enabled` / `plugins.disabled`. */
  private async reconcile(): Promise<void> {
    await Promise.all(
      [...this.records.values()].map((r) => this.enqueue(r, () => this.settle(r, { retry: false }))),
    );
  }

  private require(id: string): PluginRecord {
    const record = this.records.get(id);
    if (!record)
      throw new PluginNotFoundError(`No plugin "${id}" is installed; press Rescan if you just added it.`);
    return record;
  }

  private enqueue(record: PluginRecord, step: () => Promise<void>): Promise<void> {
    const next = record.queue.then(step, step);
    record.queue = next.catch(() => undefined);
    return next;
  }

  private wanted(id: string): boolean {
    const { enabled, disabled } = this.options.settings.get().plugins;
    return !this.closed && enabled.includes(id) && !disabled.includes(id);
  }

  private async settle(record: PluginRecord, { retry }: { retry: boolean }): Promise<void> {
    const { found } = record;
    if (found.kind === "invalid") {
      if (record.status !== "failed" || record.error !== found.reason) {
        record.status = "failed";
        record.error = found.reason;
        this.changed();
      }
      return;
    }
    const wanted = this.wanted(found.id);
    if (!wanted) {
      if (record.status !== "disabled") this.unload(record, "disabled");
      return;
    }
    if (record.status === "loaded" || (record.status === "failed" && !retry)) return;
    await this.load(record, found);
  }

  private async load(
    record: PluginRecord,
    found: Extract<DiscoveredPlugin, { kind: "valid" }>,
  ): Promise<void> {
    const { id, manifest } = { id: found.id, manifest: found.manifest };
    const o = this.options;
    record.status = "loading";
    delete record.error;
    this.changed();
    const handle = createPluginContext({
      pluginId: id,
      llm: (assertActive) => o.llm.forPlugin(id, assertActive, (text) => o.redact(text, { force: true })),
      state: new FilePluginState(o.home, id),
      commands: o.commands,
      hooks: o.hooks,
      tools: o.tools,
      registerAuxiliaryTask: (key, spec) => o.slots.register(id, key, spec),
      hasCapability: (capability) =>
        isCapabilityGranted(capability, manifest.capabilities, o.settings.document().plugins?.entries?.[id]),
      redact: o.redact,
      log: o.log,
    });
    record.handle = handle;
    try {
      await loadPlugin({
        dir: found.dir,
        main: manifest.main,
        ctx: handle.ctx,
        clock: o.clock,
        timeoutMs: o.registerTimeoutMs ?? REGISTER_TIMEOUT_MS,
      });
    } catch (error) {
      // Disabled while loading (setEnabled unloaded it at once): the revoked ctx made register
      // fail, which is no failure of the plugin; a re-enable queued meanwhile loads it afresh.
      if (record.handle !== handle) return;
      this.unload(record, "failed");
      record.error = describe(error);
      o.log.write("ERROR", "plugin_failed", { plugin: id, error: record.error });
      this.changed();
      return;
    }
    if (record.handle !== handle) return;
    if (!this.wanted(id)) return this.unload(record, "disabled");
    record.status = "loaded";
    o.log.write("INFO", "plugin_loaded", { plugin: id, version: manifest.version, source: found.source });
    this.changed();
  }

  private unload(record: PluginRecord, status: "disabled" | "failed"): void {
    const id = record.found.id;
    record.handle?.revoke();
    delete record.handle;
    this.options.commands.removePlugin(id);
    this.options.hooks.removePlugin(id);
    this.options.tools.removePlugin(id);
    this.options.slots.removePlugin(id);
    const wasLoaded = record.status === "loaded";
    record.status = status;
    if (status === "disabled") delete record.error;
    if (wasLoaded) this.options.log.write("INFO", "plugin_unloaded", { plugin: id });
    this.changed();
  }

  private changed(): void {
    try {
      this.options.onChange?.();
    } catch {
      // A listener's failure must not leave a plugin half loaded.
    }
  }

  private view(record: PluginRecord): PluginView {
    const { found } = record;
    const entry = this.options.settings.document().plugins?.entries?.[found.id];
    const manifest = found.kind === "valid" ? found.manifest : null;
    const declared = manifest?.capabilities ?? [];
    const { enabled, disabled } = this.options.settings.get().plugins;
    return {
      id: found.id,
      name: manifest?.name ?? found.id,
      version: manifest?.version ?? "",
      description: manifest?.description ?? "",
      enabled: enabled.includes(found.id) && !disabled.includes(found.id),
      status: record.status,
      ...(record.error !== undefined && { error: record.error }),
      capabilities: declared.map((id) => ({ id, granted: isCapabilityGranted(id, declared, entry) })),
      pendingCapabilities: pendingCapabilities(declared, entry),
      pages: (manifest?.pages ?? []).map((page) => ({
        id: page.id,
        title: page.title,
        url: `hermes-plugin://${found.id}/${page.entry}`,
      })),
      source: found.source,
      warnings: [...found.warnings],
    };
  }
}
