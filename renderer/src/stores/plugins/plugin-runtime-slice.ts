/**
 * The Plugins page's runtime intents (docs/contract.md §5.4): restart a plugin (the way out of "stopped") and
 * set its limits (`plugins.entries.<id>.limits`). Each shows its outcome on the plugin's row.
 */
import type { StateCreator } from "zustand/vanilla";
import type { PluginView } from "../../../../electron/host/rpc/methods/plugins.js";
import type { PluginLimits } from "../../../../electron/host/rpc/methods/settings.js";
import type { HermesClient } from "../../api/client.js";
import { describeError } from "../../api/rpc-error.js";
import { saveSetting } from "../../api/settings.js";

export type RuntimeIntent = { kind: "pending" } | { kind: "saved" } | { kind: "failed"; message: string };

/** The limits form's outcome is kept apart from Restart's, so a restart never reads "Saved". */
export const limitsIntentKey = (id: string): string => `limits:${id}`;

/** What each limit must be, in words (docs/contract.md §5.4's ranges). */
export const limitRules = {
  daily_tokens:
    "The daily token budget must be a whole number of tokens, 1 or more (or empty for no budget).",
  heap_mb: "The heap cap must be a whole number of MB from 16 to 4096.",
} as const;

/** A host refusal names the config key; the row says it in words. */
function limitsFailure(message: string): string {
  const field = /limits\.(daily_tokens|heap_mb)\b/.exec(message)?.[1] as keyof typeof limitRules | undefined;
  return field ? limitRules[field] : `Couldn't save the limits: ${message}`;
}

export interface PluginLimitsInput {
  /** null = no budget. */
  dailyTokens: number | null;
  heapMb: number | null;
}

export interface PluginRuntimeSlice {
  runtimeIntents: Readonly<Record<string, RuntimeIntent>>;
  /** Never rejects: the outcome lands in `runtimeIntents[id]`. */
  restartPlugin(id: string): Promise<void>;
  setLimits(id: string, limits: PluginLimitsInput): Promise<void>;
}

interface Needs {
  plugins: { kind: string };
  load(): Promise<void>;
}

export function createRuntimeSlice<S extends PluginRuntimeSlice & Needs>(
  client: HermesClient,
): StateCreator<S, [], [], PluginRuntimeSlice> {
  return (set, get) => {
    const mark = (id: string, intent: RuntimeIntent) =>
      set({ runtimeIntents: { ...get().runtimeIntents, [id]: intent } } as Partial<S>);
    return {
      runtimeIntents: {},
      async restartPlugin(id) {
        mark(id, { kind: "pending" });
        try {
          const { plugin }: { plugin: PluginView } = await client.call("plugins.restart", { id });
          mark(
            id,
            plugin.status === "loaded" ? { kind: "saved" } : { kind: "failed", message: plugin.error ?? "" },
          );
        } catch (err) {
          mark(id, { kind: "failed", message: `Couldn't restart it: ${describeError(err)}` });
        }
        await get().load();
      },
      async setLimits(id, limits) {
        const key = limitsIntentKey(id);
        mark(key, { kind: "pending" });
        const value: PluginLimits = {};
        if (limits.dailyTokens !== null) value.daily_tokens = limits.dailyTokens;
        if (limits.heapMb !== null) value.heap_mb = limits.heapMb;
        try {
          await saveSetting(client, `plugins.entries.${id}.limits`, value);
          mark(key, { kind: "saved" });
        } catch (err) {
          mark(key, { kind: "failed", message: limitsFailure(describeError(err)) });
        }
        await get().load();
      },
    };
  };
}
