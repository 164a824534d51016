import { method, noParams, type EmptyParams } from "../define.js";
import { providerIdPattern } from "../provider-id.js";

export { providerIdPattern };

export interface ProviderView {
  id: string;
  name: string;
  base_url: string;
  key_env: string | null;
  hasKey: boolean;
  /** Exactly the key's last 4 characters, or null when no key is set (docs/contract.md §4). */
  keyHint: string | null;
}

/**
 * The host checks the fields (saying which one is wrong in `error.data.key`: `name`, `base_url`,
 * `key_env`) and, for a new provider without an `id`, derives the id from the name.
 */
export interface ProvidersSaveParams {
  /** Absent: a new provider whose id the host derives from `name` (refused when taken). */
  id?: string;
  /** True when adding (a preset keeps its own id): refused when a provider with the id exists. */
  create?: boolean;
  name: string;
  base_url: string;
  key_env?: string | null;
  /** Goes to the OS keychain; never stored in config.yaml nor sent back. */
  apiKey?: string;
}

export const providerMethods = {
  "providers.list": method<EmptyParams, { providers: ProviderView[] }>(noParams),
  "providers.save": method<ProvidersSaveParams, { provider: ProviderView }>({
    type: "object",
    additionalProperties: false,
    required: ["name", "base_url"],
    properties: {
      id: { type: "string", pattern: providerIdPattern },
      create: { type: "boolean" },
      // Lengths and forms are checked by the host, which says what to fix per field.
      name: { type: "string", maxLength: 1000 },
      base_url: { type: "string", maxLength: 2048 },
      key_env: { type: ["string", "null"], maxLength: 1000 },
      apiKey: { type: "string", maxLength: 8192 },
    },
  }),
  /**
   * `keyLeft`: the keychain could not be reached, so a key stored there earlier (if any) is still
   * there; the sentence says where and how to delete it.
   */
  "providers.remove": method<{ id: string }, { keyLeft?: string }>({
    type: "object",
    additionalProperties: false,
    required: ["id"],
    properties: { id: { type: "string", pattern: providerIdPattern } },
  }),
  "providers.models": method<{ id: string }, { models: string[] }>({
    type: "object",
    additionalProperties: false,
    required: ["id"],
    properties: { id: { type: "string", pattern: providerIdPattern } },
  }),
};
