/**
 * Stale pins (docs/contract.md §6.4): slots the user pinned to a provider other than the main one, on an
 * endpoint that is not private — they keep spending on the old provider after a switch. Only the
 * registry's slots count: a disabled plugin's block is kept but is on no surface.
 */
import type { AuxiliaryTaskConfig, Settings } from "../config/config-schema.js";
import type { StaleAuxSlot } from "../rpc/methods/model.js";
import { findProviderId } from "../llm/route.js";
import { followsMain } from "./auxiliary-route.js";
import type { AuxiliaryTaskRegistry } from "./auxiliary-tasks.js";
import { isPrivateEndpoint } from "./private-endpoint.js";

export function isStalePin(settings: Settings, block: AuxiliaryTaskConfig | undefined): boolean {
  if (!block || typeof block !== "object" || followsMain(block.provider)) return false;
  const provider = block.provider!;
  if (provider.toLowerCase() === settings.model.provider.toLowerCase()) return false;
  const configured = findProviderId(settings, provider);
  const baseUrl = block.base_url || (configured ? settings.providers[configured]?.base_url : undefined);
  return !isPrivateEndpoint(baseUrl);
}

export function stalePins(settings: Settings, registry: AuxiliaryTaskRegistry): StaleAuxSlot[] {
  return registry
    .keys()
    .filter((task) => isStalePin(settings, settings.auxiliary[task]))
    .map((task) => {
      const block = settings.auxiliary[task]!;
      return { task, provider: block.provider ?? "", model: block.model ?? "" };
    });
}
