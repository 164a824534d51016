import { method, noParams, type EmptyParams } from "../define.js";

export const providerIdPattern = "^[a-z0-9][a-z0-9_-]{0,63}$";

export interface ProviderView {
  id: string;
  name: string;
  base_url: string;
  key_env: string | null;
  hasKey: boolean;
  /** Exactly the key's last 4 characters, or null when no key is set (SPEC §4). */
  keyHint: string | null;
}

export interface ProvidersSaveParams {
  id: string;
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
    required: ["id", "name", "base_url"],
    properties: {
      id: { type: "string", pattern: providerIdPattern },
      name: { type: "string", minLength: 1, maxLength: 120 },
      base_url: { type: "string", minLength: 1, maxLength: 2048 },
      key_env: { type: ["string", "null"], pattern: "^([A-Za-z_][A-Za-z0-9_]{0,127})?$" },
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
