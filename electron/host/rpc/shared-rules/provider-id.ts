/**
 * Provider ids: what config.yaml and the keychain key a provider by. The host derives a new
 * provider's id from its name with this function; the renderer only shows the same derivation as
 * a hint while the name is typed.
 */
import { PROVIDER_ID_PATTERN } from "../../config/config-schema.js";

export const providerIdPattern = PROVIDER_ID_PATTERN;

const validId = new RegExp(providerIdPattern);

/** "My Local Llama!" → "my-local-llama"; "" when the name has no letter or digit to build on. */
export function slugifyProviderId(name: string): string {
  return name
    .trim()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .slice(0, 64)
    .replace(/-+$/, "");
}

export const isValidProviderId = (id: string): boolean => validId.test(id);
