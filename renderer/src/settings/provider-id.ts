/** Provider ids: what config.yaml and the keychain key a provider by (`^[a-z0-9][a-z0-9_-]{0,63}$`). */
import { providerIdPattern } from "../../../electron/host/rpc/methods/providers.js";

const validId = new RegExp(providerIdPattern);

/** "My Local Llama!" → "my-local-llama"; "" when the name has no letter or digit to build on. */
export function slugifyProviderId(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .slice(0, 64)
    .replace(/-+$/, "");
}

export const isValidProviderId = (id: string): boolean => validId.test(id);
