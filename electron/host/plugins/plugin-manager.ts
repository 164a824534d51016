/**
 * The plugin runtime's owner: discovery, statuses and enable/disable at once (docs/contract.md §5.1), and
 * each plugin's worker in the plugin host (docs/contract.md §5.4): started with its heap cap, registered
 * within 10 s, watched by heartbeats, restarted alone after a crash (3 in 5 minutes: stopped until
 * `plugins.restart`). Disabling stops the worker and removes what it registered from every registry.
 */
import path from "node:path";
import type { Clock } from "../clock.js";
import type { Settings, SettingsDocument } from "../config/config-schema.js";
import type { AgentLog } from "../logging/agent-log.js";
import type { Redact } from "../secrets/redaction.js";
import type { CommandRegistry } from "./command-registry.js";
import type { PluginForks } from "./runtime/ctx-host.js";
import type { PluginCommandView, PluginView } from "../rpc/methods/plugins.js";
import type { CapabilityId } from "../../../plugins/sdk/types.js";
import { isCapabilityGranted } from "./capabilities.js";
import { discoverPlugins, type DiscoveredPlugin } from "./discovery.js";
import type { HookRegistry } from "./hook-registry.js";
import type { IdleTaskScheduler } from "./idle/idle-scheduler.js";
import { REGISTER_TIMEOUT_MS, resolveMain } from "./loader.js";
import type { PluginBudgets } from "./plugin-budget.js";
import type { PluginLlmService } from "./plugin-llm.js";
import type { SideQuestions } from "./capabilities/side-question.js";
import {
  crashDecision,
  runtimeView,
  stoppedNotice,
  type PluginRecord,
  type Running,
} from "./plugin-record.js";
import { pluginView } from "./plugin-view.js";
import type { Mirror } from "./runtime/boundary.js";
import { CrashHistory } from "./runtime/crash-policy.js";
import type { CallDeadlines } from "./runtime/ctx-host.js";
import type { PluginRuntime } from "./runtime/plugin-runtime.js";
import { unpackedPath } from "./runtime/runtime-paths.js";
import type { SessionEnd } from "./runtime/worker-session.js";
import { mirrorFor, openPluginWorker } from "./runtime/worker-launch.js";
import type { ToolRegistry } from "./tool-registry.js";
import { PluginRpcRegistry } from "./pages/rpc-registry.js";
import type { PageSite } from "./pages/page-site.js";
import type { PluginEventSink } from "./runtime/worker-launch.js";
import type { AuxiliaryTaskRegistry } from "../models/auxiliary-tasks.js";

export type { PluginCommandView, PluginStatus, PluginView } from "../rpc/methods/plugins.js";

export const DEFAULT_HEAP_MB = 256;
/** How long a worker may take to boot (a loaded machine), before register's own deadline. */
const WORKER_BOOT_TIMEOUT_MS = 60_000;

export class PluginNotFoundError extends Error {
  override readonly name = "PluginNotFoundError";
  readonly reason = "plugin_not_found" as const;
}

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

type ValidPlugin = Extract<DiscoveredPlugin, { kind: "valid" }>;

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class PluginManager {
  readonly userDir: string;
  readonly rpc: PluginRpcRegistry;
  private records = new Map<string, PluginRecord>();
  private unwatch: (() => void) | null = null;
  private closed = false;
  private started: Promise<void> | null = null;

  constructor(private readonly options: PluginManagerOptions) {
    this.userDir = path.join(options.home, "plugins");
    this.rpc = options.rpc ?? new PluginRpcRegistry();
  }

  /** The folders a loaded plugin's pages are served from (docs/contract.md §8); null when it has none. */
  pageSite(id: string): PageSite | null {
    const record = this.records.get(id);
    if (record?.status !== "loaded" || record.found.kind !== "valid") return null;
    const { dir, manifest } = record.found;
    if (manifest.pages.length === 0) return null;
    return { root: dir, dirs: manifest.pages.map((page) => path.dirname(path.resolve(dir, page.entry))) };
  }

  /** Whether the plugin is enabled and its `register` finished (its RPC methods answer). */
  isLoaded(id: string): boolean {
    return this.records.get(id)?.status === "loaded";
  }

  /** Discovers plugins and loads the enabled ones; hand edits of `plugins.*` are followed after this. */
  start(): Promise<void> {
    this.started ??= (async () => {
      this.unwatch = this.options.settings.onChange(() => {
        this.pushMirrors();
        void this.reconcile();
      });
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

  /** Whether the plugin is loaded and holds the capability now (grants read at each use). */
  holds(id: string, capability: CapabilityId): boolean {
    const record = this.records.get(id);
    if (!record || record.status !== "loaded" || record.found.kind !== "valid") return false;
    return isCapabilityGranted(capability, record.found.manifest.capabilities, this.entry(id));
  }

  /** Whether any loaded plugin holds one of the capabilities (docs/contract.md §7.3: is a token worth issuing). */
  anyHolds(capabilities: readonly CapabilityId[]): boolean {
    return [...this.records.keys()].some((id) => capabilities.some((c) => this.holds(id, c)));
  }

  /** The plugin host's pid while it runs. */
  pluginHostPid(): Promise<number | undefined> {
    return this.options.runtime.pid();
  }

  /** Plugins left stopped after repeated crashes, in plain words (`host.info` notices). */
  notices(): { kind: string; message: string }[] {
    return [...this.records.values()].flatMap(stoppedNotice);
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
      // At once, even while a register is still running: the worker stops and everything it
      // registered goes now; the load in flight then ends as disabled (see load).
      if (record.status !== "disabled") this.unload(record, "disabled");
      return this.view(record);
    }
    // Re-enabling a failed plugin is the way to retry it.
    await this.enqueue(record, () => this.settle(record, { retry: enabled }));
    if (enabled) this.askConsent([id]);
    return this.view(record);
  }

  /** The capabilities the plugin's manifest declares now (unknown ids already dropped). */
  declaredCapabilities(id: string): string[] {
    const { found } = this.require(id);
    return found.kind === "valid" ? [...found.manifest.capabilities] : [];
  }

  /** `plugins.restart`: a fresh worker, crash history cleared (the way out of `stopped`). */
  async restart(id: string): Promise<PluginView> {
    const record = this.require(id);
    record.crashes.reset();
    record.runtime.restarts = 0;
    record.runtime.state = "restarting";
    if (record.restartTimer) this.options.clock.clearTimeout(record.restartTimer);
    await this.enqueue(record, async () => {
      if (record.status === "loaded" || record.status === "loading") this.unload(record, "disabled");
      await this.settle(record, { retry: true });
    });
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
    // New and updated plugins: their consent is asked once they settled.
    const fresh = [...found.keys()].filter((id) => !this.records.has(id));
    for (const [id, record] of this.records) {
      const next = found.get(id);
      if (next && JSON.stringify(next) === JSON.stringify(record.found)) continue;
      if (next) fresh.push(id);
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
    await this.reconcile();
    this.askConsent(fresh);
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
    if (!this.wanted(found.id)) {
      if (record.status !== "disabled") this.unload(record, "disabled");
      return;
    }
    if (record.status === "loaded" || (record.status === "failed" && !retry)) return;
    await this.load(record, found);
  }

  private entry(id: string) {
    return this.options.settings.document().plugins?.entries?.[id];
  }

  private mirrorFor(found: ValidPlugin): Mirror {
    return mirrorFor(found, this.entry(found.id), this.options.settings.get().security.redact_secrets);
  }

  /** Grants and `security.redact_secrets` changed maybe: the workers' mirrors follow at once. */
  private pushMirrors(): void {
    for (const record of this.records.values()) {
      if (record.running && record.found.kind === "valid")
        record.running.session.mirror(this.mirrorFor(record.found));
    }
  }

  private async load(record: PluginRecord, found: ValidPlugin): Promise<void> {
    const { id, manifest } = found;
    const o = this.options;
    record.status = "loading";
    delete record.error;
    this.changed();
    let file: string;
    try {
      file = unpackedPath(resolveMain(found.dir, manifest.main));
    } catch (error) {
      return this.fail(record, describe(error));
    }
    const running = {} as Running;
    try {
      running.session = await openPluginWorker(
        { ...o, rpc: this.rpc },
        {
          pluginId: id,
          heapMb: this.entry(id)?.limits?.heap_mb ?? DEFAULT_HEAP_MB,
          mirror: this.mirrorFor(found),
          session: () => running.session,
          assertActive: () => {
            if (record.running !== running) {
              throw new PluginInactiveError(
                `Plugin '${id}' is disabled; enable it in Settings → Plugins first.`,
              );
            }
          },
          onEnd: (end) => this.onWorkerEnd(record, running, end),
        },
      );
    } catch (error) {
      return this.fail(record, `The plugin host could not start: ${describe(error)}`);
    }
    record.running = running;
    try {
      // The worker's own start-up is ours, not the plugin's: register's deadline starts after it.
      await running.session.ready(WORKER_BOOT_TIMEOUT_MS);
      await running.session.register(file, manifest.main, o.registerTimeoutMs ?? REGISTER_TIMEOUT_MS);
    } catch (error) {
      // Disabled while loading (setEnabled unloaded it at once): no failure of the plugin.
      if (record.running !== running) return;
      // The plugin host died under it (maybe another plugin's doing): try again, as after a crash.
      if (running.end?.hostDied) return this.crashed(record, running.end);
      return this.fail(record, describe(error));
    }
    if (record.running !== running) return;
    if (!this.wanted(id)) return this.unload(record, "disabled");
    record.status = "loaded";
    record.runtime.state = "running";
    running.session.startHeartbeat();
    o.log.write("INFO", "plugin_loaded", { plugin: id, version: manifest.version, source: found.source });
    this.changed();
  }

  private fail(record: PluginRecord, reason: string): void {
    this.unload(record, "failed");
    record.error = reason;
    this.options.log.write("ERROR", "plugin_failed", { plugin: record.found.id, error: reason });
    this.changed();
  }

  /** A loaded plugin's worker ended on its own: crash accounting, then a restart or `stopped`. */
  private onWorkerEnd(record: PluginRecord, running: Running, end: SessionEnd): void {
    running.end = end;
    if (record.running !== running || record.status !== "loaded") return; // on purpose, or register failed
    this.crashed(record, end);
  }

  private crashed(record: PluginRecord, end: SessionEnd): void {
    const id = record.found.id;
    const o = this.options;
    this.unload(record, "failed");
    o.log.write("ERROR", "plugin_crashed", { plugin: id, reason: end.reason });
    const decision = crashDecision(record, end, o.clock.now(), o.restartBackoffMs ?? 1_000);
    if (decision.action === "stop") {
      record.runtime.state = "stopped";
      record.error = `Stopped after 3 crashes in 5 minutes (last: it ${end.reason}); press Restart to try again.`;
      o.log.write("ERROR", "plugin_stopped", { plugin: id, reason: end.reason });
      this.changed();
      return;
    }
    record.runtime.state = end.unresponsive ? "not_responding" : "restarting";
    this.changed();
    record.restartTimer = o.clock.setTimeout(() => {
      delete record.restartTimer;
      if (record.runtime.state === "stopped" || this.closed) return;
      record.runtime.state = "restarting";
      record.runtime.restarts += 1;
      void this.enqueue(record, () => this.settle(record, { retry: true }));
    }, decision.delayMs);
  }

  private unload(record: PluginRecord, status: "disabled" | "failed"): void {
    const id = record.found.id;
    const running = record.running;
    delete record.running;
    if (running) this.options.runtime.stop(id, status === "disabled" ? "was disabled" : "was stopped");
    this.options.commands.removePlugin(id);
    this.options.hooks.removePlugin(id);
    this.options.tools.removePlugin(id);
    this.options.slots.removePlugin(id);
    this.options.idleTasks?.removePlugin(id);
    this.rpc.removePlugin(id);
    const wasLoaded = record.status === "loaded";
    record.status = status;
    if (status === "disabled") {
      delete record.error;
      if (record.restartTimer) this.options.clock.clearTimeout(record.restartTimer);
      delete record.restartTimer;
      if (record.runtime.state !== "stopped") record.runtime.state = "running";
    }
    if (wasLoaded) this.options.log.write("INFO", "plugin_unloaded", { plugin: id });
    this.changed();
  }

  /** Asks for consent on each enabled plugin of `ids` with pending capabilities. */
  private askConsent(ids: readonly string[]): void {
    for (const id of ids) {
      const record = this.records.get(id);
      if (!record || !this.wanted(id)) continue;
      const pending = this.view(record).pendingCapabilities;
      if (pending.length === 0) continue;
      try {
        this.options.onConsentRequired?.(id, pending);
      } catch {
        // Like `changed`: a listener's failure must not break enabling.
      }
    }
  }

  private changed(): void {
    try {
      this.options.onChange?.();
    } catch {
      // A listener's failure must not leave a plugin half loaded.
    }
  }

  private view(record: PluginRecord): PluginView {
    const entry = this.entry(record.found.id);
    const runtime = runtimeView(record, this.options.budgets, entry, DEFAULT_HEAP_MB);
    return pluginView(record.found, record.status, record.error, this.options.settings.get(), entry, runtime);
  }
}
