/**
 * Keeps every plugin in line with `plugins.enabled` / `plugins.disabled` (docs/contract.md §5.1).
 * Operations on one plugin run one after another in its queue, so a load, an unload and a rescan never
 * interleave on it; different plugins load side by side.
 */
import type { PluginCatalog } from "../catalog/plugin-catalog.js";
import type { PluginSettingsAccess } from "./plugin-manager-options.js";
import type { PluginRecord } from "../catalog/plugin-record.js";
import type { PluginWorkers } from "./plugin-workers.js";

/** Runs `step` after the plugin's earlier steps, whether they failed or not. */
export function enqueue(record: PluginRecord, step: () => Promise<void>): Promise<void> {
  const next = record.queue.then(step, step);
  record.queue = next.catch(() => undefined);
  return next;
}

/** Writes the choice to `plugins.enabled` (and out of `plugins.disabled` when enabling). */
export function writeEnabled(settings: PluginSettingsAccess, id: string, enabled: boolean): void {
  settings.update((doc) => {
    const plugins = (doc.plugins ??= {});
    const without = (list: string[] | undefined) => (list ?? []).filter((item) => item !== id);
    plugins.enabled = enabled ? [...without(plugins.enabled), id] : without(plugins.enabled);
    if (enabled && plugins.disabled?.includes(id)) plugins.disabled = without(plugins.disabled);
  });
}

export class PluginReconciler {
  constructor(
    private readonly catalog: PluginCatalog,
    private readonly workers: PluginWorkers,
  ) {}

  /** Every plugin, each in its own queue. */
  async reconcileAll(): Promise<void> {
    await Promise.all(this.catalog.all().map((r) => enqueue(r, () => this.settle(r, { retry: false }))));
  }

  /** Queues one plugin's settle; `retry` loads a failed one again. */
  settleQueued(record: PluginRecord, retry: boolean): Promise<void> {
    return enqueue(record, () => this.settle(record, { retry }));
  }

  /**
   * One plugin to its wanted state: an invalid one shows its reason, an unwanted one is unloaded, a
   * wanted one is loaded (a failed one only when retried, so a broken plugin is not reloaded in a loop).
   */
  async settle(record: PluginRecord, { retry }: { retry: boolean }): Promise<void> {
    const { found } = record;
    if (found.kind === "invalid") {
      if (record.status !== "failed" || record.error !== found.reason) {
        record.status = "failed";
        record.error = found.reason;
        this.catalog.changed();
      }
      return;
    }
    if (!this.catalog.wanted(found.id)) {
      if (record.status !== "disabled") this.workers.unload(record, "disabled");
      return;
    }
    if (record.status === "loaded" || (record.status === "failed" && !retry)) return;
    await this.workers.load(record, found);
  }
}
