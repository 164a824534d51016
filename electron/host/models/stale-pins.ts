/**
 * Stale pins (SPEC §6.4): slots still pinned to a provider other than the main one, on an
 * endpoint that is not private — they keep spending on the old provider after a switch.
 */
import type { Settings } from "../config/config-schema.js";
import type { StaleAuxSlot } from "../rpc/methods/model.js";
import { isPrivateEndpoint } from "./private-endpoint.js";

const followsMain = (provider: string | undefined): boolean =>
  !provider || provider === "auto" || provider === "main";

export function stalePins(settings: Settings): StaleAuxSlot[] {
  const mainProvider = settings.model.provider;
  return Object.entries(settings.auxiliary)
    .filter(([, block]) => {
      if (followsMain(block.provider) || block.provider === mainProvider) return false;
      const baseUrl = block.base_url || settings.providers[block.provider ?? ""]?.base_url;
      return !isPrivateEndpoint(baseUrl);
    })
    .map(([task, block]) => ({ task, provider: block.provider ?? "", model: block.model ?? "" }))
    .sort((a, b) => a.task.localeCompare(b.task));
}
