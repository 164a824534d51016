/**
 * Consent for plugin capabilities (docs/contract.md §7.2): the plugins whose consent screen is due, in order
 * (from `plugin.consent_required`, and from the list for enabled plugins still pending, e.g. at
 * start), the answer to the first one, and revokes from Settings → Plugins.
 */
import type { StateCreator } from "zustand/vanilla";
import type { PluginView } from "../../../../electron/host/rpc/methods/plugins.js";
import type { HermesClient } from "../../api/client.js";
import { describeError } from "../../api/rpc-error.js";
import type { Loadable } from "../loadable.js";

export interface ConsentRequest {
  id: string;
  pendingCapabilities: readonly string[];
}

export type ConsentAnswer = { kind: "idle" } | { kind: "pending" } | { kind: "failed"; message: string };

export type RevokeState = { kind: "pending" } | { kind: "failed"; message: string };

export interface PluginConsentSlice {
  /** The first one is on screen. */
  consentQueue: readonly ConsentRequest[];
  consentAnswer: ConsentAnswer;
  /** By `<plugin id> <capability id>`. */
  revokes: Readonly<Record<string, RevokeState>>;
  requestConsent(request: ConsentRequest): void;
  /** Queues every enabled plugin of the list with pending capabilities not queued yet. */
  requestPendingConsents(plugins: readonly PluginView[]): void;
  /** Answers the screen on show: `grant` lists what to grant; [] declines. Never rejects. */
  answerConsent(grant: readonly string[]): Promise<void>;
  /** Drops the screen on show without answering (after an answer could not be sent). */
  dismissConsent(): void;
  revokeCapability(id: string, capability: string): Promise<void>;
}

interface Needs {
  plugins: Loadable<PluginView[]>;
  load(): Promise<void>;
}

export const revokeKey = (id: string, capability: string) => `${id} ${capability}`;

export function createConsentSlice<S extends PluginConsentSlice & Needs>(
  client: HermesClient,
  /** Invalidates list loads in flight, so one sent before an answer cannot bring its question back. */
  nextLoad: () => unknown,
): StateCreator<S, [], [], PluginConsentSlice> {
  return (set, get) => {
    const patch = (partial: Partial<PluginConsentSlice>) => set(partial as Partial<S>);
    const replace = (plugin: PluginView) => {
      const list = get().plugins;
      if (list.kind === "ready")
        set({
          plugins: { ...list, data: list.data.map((p) => (p.id === plugin.id ? plugin : p)) },
        } as Partial<S>);
    };
    const shift = () => patch({ consentQueue: get().consentQueue.slice(1), consentAnswer: { kind: "idle" } });
    return {
      consentQueue: [],
      consentAnswer: { kind: "idle" },
      revokes: {},
      requestConsent(request) {
        if (request.pendingCapabilities.length === 0) return;
        const queue = get().consentQueue;
        const at = queue.findIndex((r) => r.id === request.id);
        // The one on screen keeps its rows while the user reads them; a queued one is updated.
        if (at === 0) return;
        patch({ consentQueue: at < 0 ? [...queue, request] : queue.map((r, i) => (i === at ? request : r)) });
      },
      requestPendingConsents(plugins) {
        for (const plugin of plugins) {
          if (plugin.enabled && plugin.pendingCapabilities.length > 0 && plugin.status !== "disabled") {
            if (!get().consentQueue.some((r) => r.id === plugin.id)) get().requestConsent(plugin);
          }
        }
      },
      async answerConsent(grant) {
        const request = get().consentQueue[0];
        if (!request || get().consentAnswer.kind === "pending") return;
        patch({ consentAnswer: { kind: "pending" } });
        try {
          nextLoad();
          const { plugin } = await client.call("plugins.consent", { id: request.id, grant: [...grant] });
          replace(plugin);
          shift();
        } catch (err) {
          patch({
            consentAnswer: { kind: "failed", message: `Couldn't save your answer: ${describeError(err)}` },
          });
        }
      },
      dismissConsent: shift,
      async revokeCapability(id, capability) {
        const key = revokeKey(id, capability);
        patch({ revokes: { ...get().revokes, [key]: { kind: "pending" } } });
        try {
          nextLoad();
          const { plugin } = await client.call("plugins.revoke", { id, capability });
          replace(plugin);
          const next = { ...get().revokes };
          delete next[key];
          patch({ revokes: next });
        } catch (err) {
          patch({
            revokes: {
              ...get().revokes,
              [key]: { kind: "failed", message: `Couldn't revoke it: ${describeError(err)}` },
            },
          });
        }
      },
    };
  };
}
