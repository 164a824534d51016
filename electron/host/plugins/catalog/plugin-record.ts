/**
 * What the plugin manager keeps per plugin, and the pure parts of its runtime story (docs/contract.md §5.4):
 * how a crash is counted, what `plugins.list` shows of the runtime, the notice of a stopped one.
 */
import type { TimerHandle } from "../../clock.js";
import type { PluginEntryDocument } from "../../config/config-schema.js";
import type { PluginRuntimeView, PluginView } from "../../rpc/methods/plugins.js";
import type { DiscoveredPlugin } from "./discovery.js";
import type { PluginBudgets } from "../budgets/plugin-budget.js";
import type { CrashDecision, CrashHistory } from "../runtime/crash-policy.js";
import type { SessionEnd, WorkerSession } from "../runtime/host-half/worker-session.js";

export interface Running {
  session: WorkerSession;
  /** How its session ended, once it has. */
  end?: SessionEnd;
}

export interface PluginRecord {
  found: DiscoveredPlugin;
  status: PluginView["status"];
  error?: string;
  /** The live worker; a new object per start, so a late message of an old worker is told apart. */
  running?: Running;
  crashes: CrashHistory;
  runtime: {
    state: PluginRuntimeView["state"];
    restarts: number;
    lastError: string | null;
    lastErrorAt: string | null;
  };
  restartTimer?: TimerHandle;
  /** Operations on one plugin run one after another; different plugins load side by side. */
  queue: Promise<void>;
}

/**
 * Records the crash on the plugin and decides: restart (after a delay) or stop. When the whole
 * plugin host died, only a plugin that was busy in a call is held to account; the others just
 * register again in the new one.
 */
export function crashDecision(
  record: PluginRecord,
  end: SessionEnd,
  now: number,
  backoffMs: number,
): CrashDecision {
  record.error = `Not running: it ${end.reason}.`;
  record.runtime.lastError = end.reason;
  record.runtime.lastErrorAt = new Date(now).toISOString();
  const innocent = end.hostDied === "exited" && !end.hadPendingCalls;
  return innocent ? { action: "restart", delayMs: backoffMs } : record.crashes.record(now);
}

/** Shown once a worker ran: loading, loaded, or down after a crash (not after a failed register). */
export function runtimeView(
  record: PluginRecord,
  budgets: PluginBudgets,
  entry: PluginEntryDocument | undefined,
  defaultHeapMb: number,
): PluginRuntimeView | undefined {
  const { found } = record;
  const started =
    found.kind === "valid" &&
    (record.status === "loaded" ||
      record.status === "loading" ||
      (record.status === "failed" && record.runtime.state !== "running"));
  if (!started) return undefined;
  return {
    ...record.runtime,
    memoryMb: record.running?.session.memoryMb ?? null,
    tokensToday: budgets.tokensToday(found.id),
    callsToday: budgets.callsToday(found.id),
    limits: {
      dailyTokens: entry?.limits?.daily_tokens ?? null,
      heapMb: entry?.limits?.heap_mb ?? defaultHeapMb,
    },
  };
}

/** The `host.info` notice of a plugin left stopped after repeated crashes, in plain words. */
export function stoppedNotice(record: PluginRecord): { kind: string; message: string }[] {
  if (record.runtime.state !== "stopped" || record.status !== "failed") return [];
  return [
    {
      kind: "plugin_stopped",
      message: `The plugin "${record.found.id}" was stopped after crashing 3 times in 5 minutes (last: ${record.runtime.lastError ?? "unknown"}). Restart it in Settings → Plugins.`,
    },
  ];
}
