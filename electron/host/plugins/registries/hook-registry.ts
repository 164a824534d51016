/**
 * Registered hooks and how they fire (docs/contract.md §5.3): in registration order, each bounded by a
 * timeout; a hook that throws is logged and skipped; a `pre_tool_call` hook that returns
 * `{block}` or times out blocks the tool (fails closed).
 */
import { systemClock, type Clock } from "../../clock.js";
import type { AgentLog } from "../../logging/agent-log.js";
import type { HookFn, HookName, HookPayloads } from "./hook-types.js";

export const defaultHookTimeoutMs = 30_000;

interface Entry {
  pluginId: string;
  name: HookName;
  fn: HookFn;
}

export type HookOutcome =
  | { pluginId: string; status: "ok"; value: unknown }
  | { pluginId: string; status: "error" | "timeout"; error: string; reason?: string };

export type ToolGate = { blocked: false } | { blocked: true; reason: string; pluginId: string };

const timedOut = Symbol("timeout");

export class HookRegistry {
  private entries: Entry[] = [];

  constructor(
    private readonly log: AgentLog,
    private readonly clock: Clock = systemClock,
    private readonly timeoutMs = defaultHookTimeoutMs,
  ) {}

  register<H extends HookName>(pluginId: string, name: H, fn: HookFn<H>): () => void {
    const entry: Entry = { pluginId, name, fn: fn as HookFn };
    this.entries.push(entry);
    return () => {
      this.entries = this.entries.filter((e) => e !== entry);
    };
  }

  removePlugin(pluginId: string): void {
    this.entries = this.entries.filter((e) => e.pluginId !== pluginId);
  }

  count(name?: HookName): number {
    return name ? this.entries.filter((e) => e.name === name).length : this.entries.length;
  }

  private async runOne(entry: Entry, payload: unknown): Promise<HookOutcome> {
    let timer: ReturnType<Clock["setTimeout"]> | undefined;
    const deadline = new Promise<typeof timedOut>((resolve) => {
      timer = this.clock.setTimeout(() => resolve(timedOut), this.timeoutMs);
    });
    try {
      const value = await Promise.race([Promise.resolve().then(() => entry.fn(payload as never)), deadline]);
      if (value === timedOut) {
        this.log.write("WARN", "hook_timeout", {
          plugin: entry.pluginId,
          hook: entry.name,
          timeout_ms: this.timeoutMs,
        });
        return {
          pluginId: entry.pluginId,
          status: "timeout",
          error: `timed out after ${this.timeoutMs} ms`,
          reason: "plugin_timeout",
        };
      }
      return { pluginId: entry.pluginId, status: "ok", value };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const reason = (err as { reason?: unknown } | null)?.reason;
      this.log.write("ERROR", "hook_error", { plugin: entry.pluginId, hook: entry.name, error: message });
      return {
        pluginId: entry.pluginId,
        status: "error",
        error: message,
        ...(typeof reason === "string" && { reason }),
      };
    } finally {
      if (timer) this.clock.clearTimeout(timer);
    }
  }

  /** Fires every hook of `name` one after another (their order is the registration order). */
  async fire<H extends HookName>(name: H, payload: HookPayloads[H]): Promise<HookOutcome[]> {
    const outcomes: HookOutcome[] = [];
    for (const entry of this.entries.filter((e) => e.name === name)) {
      outcomes.push(await this.runOne(entry, structuredCloneSafe(payload)));
    }
    return outcomes;
  }

  /** `pre_tool_call`: the first `{block: reason}` (or a timeout) blocks the tool. */
  async gateTool(payload: HookPayloads["pre_tool_call"]): Promise<ToolGate> {
    for (const outcome of await this.fire("pre_tool_call", payload)) {
      // A plugin that died or missed its deadline while deciding fails closed (docs/contract.md §5.4).
      if (
        outcome.status === "error" &&
        (outcome.reason === "plugin_unresponsive" || outcome.reason === "plugin_timeout")
      ) {
        return {
          blocked: true,
          pluginId: outcome.pluginId,
          reason: `a pre_tool_call hook of ${outcome.pluginId} stopped before answering (${outcome.reason})`,
        };
      }
      if (outcome.status === "timeout") {
        return {
          blocked: true,
          pluginId: outcome.pluginId,
          reason: `a pre_tool_call hook of ${outcome.pluginId} did not answer in time (plugin_timeout)`,
        };
      }
      if (outcome.status === "ok" && outcome.value && typeof outcome.value === "object") {
        const block = (outcome.value as { block?: unknown }).block;
        if (typeof block === "string" && block)
          return { blocked: true, pluginId: outcome.pluginId, reason: block };
      }
    }
    return { blocked: false };
  }
}

/** Hooks get their own copy, so one plugin can't rewrite what the next one (or the host) sees. */
function structuredCloneSafe<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}
