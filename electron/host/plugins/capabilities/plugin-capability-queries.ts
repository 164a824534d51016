/**
 * What the plugins may do now (docs/contract.md §7.1, §7.2): whether a loaded plugin holds a capability
 * (grants read from settings at each use, so a revoke counts at once), and asking the user's consent
 * for an enabled plugin's capabilities not answered yet.
 */
import type { CapabilityId } from "../../../../plugins/sdk/types.js";
import { isCapabilityGranted } from "./capabilities.js";
import type { PluginCatalog } from "../catalog/plugin-catalog.js";
import type { PluginManagerOptions } from "../manager/plugin-manager-options.js";

export class PluginCapabilityQueries {
  constructor(
    private readonly catalog: PluginCatalog,
    private readonly onConsentRequired: PluginManagerOptions["onConsentRequired"],
  ) {}

  /** Whether the plugin is loaded and holds the capability now (grants read at each use). */
  holds(id: string, capability: CapabilityId): boolean {
    return this.holdsWith(id, capability, (pluginId) => this.catalog.entry(pluginId));
  }

  /**
   * Whether any loaded plugin holds one of the capabilities (docs/contract.md §7.3: is a token worth
   * issuing). Asked after every turn: the settings are read once, not once per plugin.
   */
  anyHolds(capabilities: readonly CapabilityId[]): boolean {
    const entry = this.catalog.entryDocuments();
    return this.catalog.ids().some((id) => capabilities.some((c) => this.holdsWith(id, c, entry)));
  }

  private holdsWith(
    id: string,
    capability: CapabilityId,
    entry: (id: string) => ReturnType<PluginCatalog["entry"]>,
  ): boolean {
    const record = this.catalog.get(id);
    if (!record || record.status !== "loaded" || record.found.kind !== "valid") return false;
    return isCapabilityGranted(capability, record.found.manifest.capabilities, entry(id));
  }

  /** The capabilities the plugin's manifest declares now (unknown ids already dropped). */
  declared(id: string): string[] {
    const { found } = this.catalog.require(id);
    return found.kind === "valid" ? [...found.manifest.capabilities] : [];
  }

  /** Asks for consent on each enabled plugin of `ids` with pending capabilities. */
  askConsent(ids: readonly string[]): void {
    for (const id of ids) {
      const record = this.catalog.get(id);
      if (!record || !this.catalog.wanted(id)) continue;
      const pending = this.catalog.view(record).pendingCapabilities;
      if (pending.length === 0) continue;
      try {
        this.onConsentRequired?.(id, pending);
      } catch {
        // Like `changed`: a listener's failure must not break enabling.
      }
    }
  }
}
