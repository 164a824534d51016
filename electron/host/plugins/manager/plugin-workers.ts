/**
 * Each loaded plugin's worker in the plugin host (docs/contract.md §5.4): started with its heap cap,
 * registered within its deadline, watched by heartbeats, restarted alone after a crash (during
 * `register` too) with a growing delay (3 in 5 minutes: stopped until `plugins.restart`). Unloading stops the worker and removes what
 * it registered from every registry. Steps here run inside the plugin's queue (plugin-reconciler.ts).
 */
import type { Mirror } from "../runtime/boundary.js";
import type { DiscoveredPlugin } from "../catalog/discovery.js";
import { REGISTER_TIMEOUT_MS, resolveMain } from "../catalog/loader.js";
import type { PluginRpcRegistry } from "../pages/rpc-registry.js";
import type { PluginCatalog } from "../catalog/plugin-catalog.js";
import { DEFAULT_HEAP_MB, PluginInactiveError, type PluginManagerOptions } from "./plugin-manager-options.js";
import { crashDecision, type PluginRecord, type Running } from "../catalog/plugin-record.js";
import { unpackedPath } from "../runtime/launch/runtime-paths.js";
import type { SessionEnd } from "../runtime/host-half/worker-session.js";
import { mirrorFor, openPluginWorker } from "../runtime/host-half/worker-launch.js";

/** How long a worker may take to boot (a loaded machine), before register's own deadline. */
const WORKER_BOOT_TIMEOUT_MS = 60_000;

type ValidPlugin = Extract<DiscoveredPlugin, { kind: "valid" }>;

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class PluginWorkers {
  constructor(
    private readonly options: PluginManagerOptions,
    private readonly rpc: PluginRpcRegistry,
    private readonly catalog: PluginCatalog,
    /** Queues a fresh load once a crash's backoff has passed (the reconciler owns the queue). */
    private readonly retryAfterCrash: (record: PluginRecord) => void,
  ) {}

  /** Grants and `security.redact_secrets` changed maybe: the workers' mirrors follow at once. */
  pushMirrors(): void {
    for (const record of this.catalog.all()) {
      if (record.running && record.found.kind === "valid")
        record.running.session.mirror(this.mirrorFor(record.found));
    }
  }

  /** `plugins.restart` clears the crash history and any pending restart before the fresh load. */
  forgetCrashes(record: PluginRecord): void {
    record.crashes.reset();
    record.runtime.restarts = 0;
    record.runtime.state = "restarting";
    if (record.restartTimer) this.options.clock.clearTimeout(record.restartTimer);
  }

  async load(record: PluginRecord, found: ValidPlugin): Promise<void> {
    const { id, manifest } = found;
    const o = this.options;
    record.status = "loading";
    delete record.error;
    this.catalog.changed();
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
          heapMb: this.catalog.entry(id)?.limits?.heap_mb ?? DEFAULT_HEAP_MB,
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
    // The manager closed while the plugin host was starting: nothing more to wait for.
    if (this.catalog.closed) return this.unload(record, "disabled");
    try {
      // The worker's own start-up is ours, not the plugin's: register's deadline starts after it.
      await running.session.ready(WORKER_BOOT_TIMEOUT_MS);
      await running.session.register(file, manifest.main, o.registerTimeoutMs ?? REGISTER_TIMEOUT_MS);
    } catch (error) {
      // Disabled while loading (setEnabled unloaded it at once): no failure of the plugin.
      if (record.running !== running) return;
      // Its worker refused to run unconfined: no restart would change that.
      if (running.end?.refused) return this.fail(record, running.end.reason);
      // Its worker ended under it (it exited or crashed in `register`, or the whole plugin host
      // died): a crash like any other, restarted alone and counted (docs/contract.md §5.4).
      if (running.end) return this.crashed(record, running.end);
      return this.fail(record, describe(error));
    }
    if (record.running !== running) return;
    if (!this.catalog.wanted(id)) return this.unload(record, "disabled");
    record.status = "loaded";
    record.runtime.state = "running";
    running.session.startHeartbeat();
    o.log.write("INFO", "plugin_loaded", { plugin: id, version: manifest.version, source: found.source });
    this.catalog.changed();
  }

  unload(record: PluginRecord, status: "disabled" | "failed"): void {
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
    this.catalog.changed();
  }

  private mirrorFor(found: ValidPlugin): Mirror {
    const redactSecrets = this.options.settings.get().security.redact_secrets;
    return mirrorFor(found, this.catalog.entry(found.id), redactSecrets);
  }

  private fail(record: PluginRecord, reason: string): void {
    this.unload(record, "failed");
    record.error = reason;
    this.options.log.write("ERROR", "plugin_failed", { plugin: record.found.id, error: reason });
    this.catalog.changed();
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
      this.catalog.changed();
      return;
    }
    record.runtime.state = end.unresponsive ? "not_responding" : "restarting";
    this.catalog.changed();
    record.restartTimer = o.clock.setTimeout(() => {
      delete record.restartTimer;
      if (record.runtime.state === "stopped" || this.catalog.closed) return;
      record.runtime.state = "restarting";
      record.runtime.restarts += 1;
      this.retryAfterCrash(record);
    }, decision.delayMs);
  }
}
