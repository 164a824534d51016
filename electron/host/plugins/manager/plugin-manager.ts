/**
 * The plugin runtime's owner (docs/contract.md §5.1, §5.4): the one object the host and the `plugins.*`
 * handlers talk to. It wires its parts and orders their steps; each part holds one concern:
 * plugin-catalog.ts (discovered plugins, their records, views and change notices), plugin-reconciler.ts
 * (enabled/disabled settings and the per-plugin queue), plugin-workers.ts (worker start, crash restarts,
 * unloading), plugin-capability-queries.ts (capability checks and consent asks).
 */
import path from "node:path";
import type { PluginCommandView, PluginView } from "../../rpc/methods/plugins.js";
import type { CapabilityId } from "../../../../plugins/sdk/types.js";
import type { PageSite } from "../pages/page-site.js";
import { PluginRpcRegistry } from "../pages/rpc-registry.js";
import { PluginCapabilityQueries } from "../capabilities/plugin-capability-queries.js";
import { PluginCatalog } from "../catalog/plugin-catalog.js";
import type { PluginManagerOptions } from "./plugin-manager-options.js";
import { stoppedNotice } from "../catalog/plugin-record.js";
import { enqueue, PluginReconciler, writeEnabled } from "./plugin-reconciler.js";
import { PluginWorkers } from "./plugin-workers.js";

export type { PluginCommandView, PluginStatus, PluginView } from "../../rpc/methods/plugins.js";
export {
  DEFAULT_HEAP_MB,
  PluginInactiveError,
  PluginNotFoundError,
  type PluginManagerOptions,
  type PluginSettingsAccess,
} from "./plugin-manager-options.js";

export class PluginManager {
  readonly userDir: string;
  readonly rpc: PluginRpcRegistry;
  private readonly catalog: PluginCatalog;
  private readonly workers: PluginWorkers;
  private readonly reconciler: PluginReconciler;
  private readonly capabilities: PluginCapabilityQueries;
  private unwatch: (() => void) | null = null;
  private started: Promise<void> | null = null;
  /** Set by `startLater`: what `ready()` waits on until `start` runs (or `close` gives up on it). */
  private startLaterGate: { opened: Promise<void>; open(started: Promise<void>): void } | null = null;

  constructor(private readonly options: PluginManagerOptions) {
    this.userDir = path.join(options.home, "plugins");
    this.rpc = options.rpc ?? new PluginRpcRegistry();
    this.catalog = new PluginCatalog(options, this.userDir);
    // After a crash's backoff the plugin is settled again in its queue, as a retry.
    this.workers = new PluginWorkers(options, this.rpc, this.catalog, (record) => {
      void this.reconciler.settleQueued(record, true);
    });
    this.reconciler = new PluginReconciler(this.catalog, this.workers);
    this.capabilities = new PluginCapabilityQueries(this.catalog, options.onConsentRequired);
  }

  /** The folders a loaded plugin's pages are served from (docs/contract.md §8); null when it has none. */
  pageSite(id: string): PageSite | null {
    const record = this.catalog.get(id);
    if (record?.status !== "loaded" || record.found.kind !== "valid") return null;
    const { dir, manifest } = record.found;
    if (manifest.pages.length === 0) return null;
    return { root: dir, dirs: manifest.pages.map((page) => path.dirname(path.resolve(dir, page.entry))) };
  }

  /** Whether the plugin is enabled and its `register` finished (its RPC methods answer). */
  isLoaded(id: string): boolean {
    return this.catalog.get(id)?.status === "loaded";
  }

  /** Discovers plugins and loads the enabled ones; hand edits of `plugins.*` are followed after this. */
  start(): Promise<void> {
    this.started ??= (async () => {
      this.unwatch = this.options.settings.onChange(() => {
        this.workers.pushMirrors();
        void this.reconciler.reconcileAll();
      });
      await this.rescan();
    })();
    this.startLaterGate?.open(this.started);
    return this.started;
  }

  /** `start` will be called later: until then, `ready()` waits for it rather than answering at once. */
  startLater(): void {
    if (this.started || this.startLaterGate) return;
    let open: (started: Promise<void>) => void = () => undefined;
    const opened = new Promise<void>((resolve) => {
      open = (started) => resolve(started.catch(() => undefined));
    });
    this.startLaterGate = { opened, open };
  }

  /** Resolves once the first scan has settled every plugin (loaded, failed or disabled). */
  ready(): Promise<void> {
    return this.started ?? this.startLaterGate?.opened ?? Promise.resolve();
  }

  list(): PluginView[] {
    return this.catalog.all().map((record) => this.catalog.view(record));
  }

  get(id: string): PluginView {
    return this.catalog.view(this.catalog.require(id));
  }

  commands(): PluginCommandView[] {
    return this.options.commands
      .list()
      .map(({ name, description, argsHint, pluginId }) => ({ name, description, argsHint, pluginId }));
  }

  /** Whether the plugin is loaded and holds the capability now (grants read at each use). */
  holds(id: string, capability: CapabilityId): boolean {
    return this.capabilities.holds(id, capability);
  }

  /** Whether any loaded plugin holds one of the capabilities (docs/contract.md §7.3: is a token worth issuing). */
  anyHolds(capabilities: readonly CapabilityId[]): boolean {
    return this.capabilities.anyHolds(capabilities);
  }

  /** The plugin host's pid while it runs. */
  pluginHostPid(): Promise<number | undefined> {
    return this.options.runtime.pid();
  }

  /** Plugins left stopped after repeated crashes, in plain words (`host.info` notices). */
  notices(): { kind: string; message: string }[] {
    return this.catalog.all().flatMap(stoppedNotice);
  }

  async setEnabled(id: string, enabled: boolean): Promise<PluginView> {
    const record = this.catalog.require(id);
    writeEnabled(this.options.settings, id, enabled);
    if (!enabled && record.found.kind === "valid") {
      // At once, even while a register is still running: the worker stops and everything it
      // registered goes now; the load in flight then ends as disabled (see PluginWorkers.load).
      if (record.status !== "disabled") this.workers.unload(record, "disabled");
      return this.catalog.view(record);
    }
    // Re-enabling a failed plugin is the way to retry it.
    await this.reconciler.settleQueued(record, enabled);
    if (enabled) this.capabilities.askConsent([id]);
    return this.catalog.view(record);
  }

  /** The capabilities the plugin's manifest declares now (unknown ids already dropped). */
  declaredCapabilities(id: string): string[] {
    return this.capabilities.declared(id);
  }

  /** `plugins.restart`: a fresh worker, crash history cleared (the way out of `stopped`). */
  async restart(id: string): Promise<PluginView> {
    const record = this.catalog.require(id);
    this.workers.forgetCrashes(record);
    await enqueue(record, async () => {
      if (record.status === "loaded" || record.status === "loading") this.workers.unload(record, "disabled");
      await this.reconciler.settle(record, { retry: true });
    });
    return this.catalog.view(record);
  }

  /** Reads the plugin folders again: new ones appear, removed ones go, changed ones reload. */
  async rescan(): Promise<PluginView[]> {
    const found = this.catalog.discover();
    const work: Promise<void>[] = [];
    // New and updated plugins: their consent is asked once they settled.
    const fresh = [...found.keys()].filter((id) => !this.catalog.has(id));
    for (const [id, record] of this.catalog.entries()) {
      const next = found.get(id);
      if (next && JSON.stringify(next) === JSON.stringify(record.found)) continue;
      if (next) fresh.push(id);
      work.push(
        enqueue(record, async () => {
          this.workers.unload(record, "disabled");
          if (!next) this.catalog.remove(id);
          else record.found = next;
        }),
      );
    }
    await Promise.all(work);
    this.catalog.addNew(found);
    await this.reconciler.reconcileAll();
    this.capabilities.askConsent(fresh);
    return this.list();
  }

  async close(): Promise<void> {
    // A start that never came: whoever waits on `ready()` is answered with what there is.
    this.startLaterGate?.open(Promise.resolve());
    this.catalog.close();
    this.unwatch?.();
    // At once, as when disabling: a register still running or a worker still booting is not
    // waited for (its deadline is up to a minute); the load in flight then ends as disabled.
    for (const record of this.catalog.all()) if (record.running) this.workers.unload(record, "disabled");
    await Promise.all(
      this.catalog.all().map((r) => enqueue(r, async () => this.workers.unload(r, "disabled"))),
    );
  }
}
