/**
 * `model.auxiliary.list` rows (docs/contract.md §11): every slot of the registry, in its order, with the
 * user's block, the effective route as resolved right now, and whether it is stale or broken.
 */
import type { Settings } from "../config/config-schema.js";
import type { AuxiliaryTaskRow } from "../rpc/methods/model.js";
import { followBaseBlocked, resolveSlot } from "./auxiliary-route.js";
import type { AuxiliaryTaskRegistry, SlotDefinition } from "./auxiliary-tasks.js";
import { isStalePin } from "./stale-pins.js";

function row(settings: Settings, registry: AuxiliaryTaskRegistry, slot: SlotDefinition): AuxiliaryTaskRow {
  const raw = settings.auxiliary[slot.key];
  const block = raw && typeof raw === "object" ? raw : {};
  const resolution = resolveSlot(slot.key, settings, registry);
  const plugin = slot.kind === "plugin" ? slot.pluginId : undefined;
  const providerBaseUrl = (id: string) =>
    settings.providers[id]?.base_url ??
    Object.entries(settings.providers).find(([key]) => key.toLowerCase() === id.toLowerCase())?.[1]
      .base_url ??
    "";
  return {
    task: slot.key,
    provider: block.provider || "auto",
    model: block.model ?? "",
    base_url: block.base_url ?? "",
    timeout: resolution.timeoutSeconds,
    label: slot.label,
    hint: plugin ? `${slot.description}${slot.description ? " " : ""}(plugin ${plugin})` : slot.description,
    ...(plugin !== undefined && { plugin }),
    inherit_from: slot.kind === "plugin" ? slot.inheritFrom : null,
    effective: {
      provider: resolution.choice.provider,
      model: resolution.choice.model,
      base_url: resolution.choice.base_url || providerBaseUrl(resolution.choice.provider),
    },
    stale: isStalePin(settings, raw),
    source: resolution.source,
    chain: resolution.chain,
    broken: resolution.broken,
    follow_blocked: followBaseBlocked(slot.key, settings, registry),
  };
}

export function auxiliaryRows(settings: Settings, registry: AuxiliaryTaskRegistry): AuxiliaryTaskRow[] {
  return registry.list().map((slot) => row(settings, registry, slot));
}
