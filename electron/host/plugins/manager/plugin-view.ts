/** What `plugins.list` shows of one plugin (docs/contract.md §11, §5.4). */
import type { PluginEntryDocument, Settings } from "../../config/config-schema.js";
import type { PluginRuntimeView, PluginView } from "../../rpc/methods/plugins.js";
import { isCapabilityGranted, pendingCapabilities } from "../capabilities/capabilities.js";
import type { DiscoveredPlugin } from "../catalog/discovery.js";

export function pluginView(
  found: DiscoveredPlugin,
  status: PluginView["status"],
  error: string | undefined,
  settings: Settings,
  entry: PluginEntryDocument | undefined,
  runtime: PluginRuntimeView | undefined,
): PluginView {
  const manifest = found.kind === "valid" ? found.manifest : null;
  const declared = manifest?.capabilities ?? [];
  const { enabled, disabled } = settings.plugins;
  return {
    id: found.id,
    name: manifest?.name ?? found.id,
    version: manifest?.version ?? "",
    description: manifest?.description ?? "",
    enabled: enabled.includes(found.id) && !disabled.includes(found.id),
    status,
    ...(error !== undefined && { error }),
    capabilities: declared.map((id) => ({ id, granted: isCapabilityGranted(id, declared, entry) })),
    pendingCapabilities: pendingCapabilities(declared, entry),
    pages: (manifest?.pages ?? []).map((page) => ({
      id: page.id,
      title: page.title,
      url: `hermes-plugin://${found.id}/${page.entry}`,
    })),
    source: found.source,
    warnings: [...found.warnings],
    ...(runtime && { runtime }),
  };
}
