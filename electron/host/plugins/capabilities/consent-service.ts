/**
 * `plugins.consent` and `plugins.revoke` (docs/contract.md §7.2, §11): each answer is checked against what the
 * plugin declares now, written atomically through the settings store (whose change listeners push
 * the workers' capability mirrors, so `ctx.hasCapability` follows at once), and audited as one
 * `plugin_consent` / `plugin_revoke` line in `logs/agent.log`.
 */
import type { Clock } from "../../clock.js";
import type { AgentLog } from "../../logging/agent-log.js";
import type { PluginView } from "../../rpc/methods/plugins.js";
import type { PluginSettingsAccess } from "../manager/plugin-manager.js";
import { applyConsent, applyRevoke, validateGrant } from "./consent.js";

export interface ConsentServiceDeps {
  settings: PluginSettingsAccess;
  log: AgentLog;
  clock: Clock;
  /** The plugin's declared capabilities now; throws PluginNotFoundError for an unknown id. */
  declared(pluginId: string): readonly string[];
  view(pluginId: string): PluginView;
}

export class ConsentService {
  constructor(private readonly deps: ConsentServiceDeps) {}

  /** Grants `grant` (an empty list declines every pending capability). */
  consent(pluginId: string, grant: readonly unknown[]): PluginView {
    const declared = this.deps.declared(pluginId);
    const pendingBefore = this.deps.view(pluginId).pendingCapabilities;
    const ids = validateGrant(pluginId, declared, grant);
    this.deps.settings.update((doc) => applyConsent(doc, pluginId, declared, ids, this.deps.clock.now()));
    const declined = pendingBefore.filter((id) => !ids.includes(id as never));
    this.deps.log.write("INFO", "plugin_consent", {
      plugin: pluginId,
      granted: ids.join(",") || "-",
      declined: declined.join(",") || "-",
    });
    return this.deps.view(pluginId);
  }

  revoke(pluginId: string, capability: unknown): PluginView {
    this.deps.declared(pluginId);
    let revoked = "";
    this.deps.settings.update((doc) => {
      revoked = applyRevoke(doc, pluginId, capability);
    });
    this.deps.log.write("INFO", "plugin_revoke", { plugin: pluginId, capability: revoked });
    return this.deps.view(pluginId);
  }
}
