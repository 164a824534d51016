import { Type, type Static } from "@sinclair/typebox";
import { method, noParams, params } from "../define.js";
import { providerIdPattern } from "../shared-rules/provider-id.js";

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
const providersSaveParams = params({
  /** Absent: a new provider whose id the host derives from `name` (refused when taken). */
  id: Type.Optional(Type.String({ pattern: providerIdPattern })),
  /** True when adding (a preset keeps its own id): refused when a provider with the id exists. */
  create: Type.Optional(Type.Boolean()),
  // Lengths and forms are checked by the host, which says what to fix per field.
  name: Type.String({ maxLength: 1000 }),
  base_url: Type.String({ maxLength: 2048 }),
  key_env: Type.Optional(Type.Unsafe<string | null>({ type: ["string", "null"], maxLength: 1000 })),
  /** Goes to the OS keychain; never stored in config.yaml nor sent back. */
  apiKey: Type.Optional(Type.String({ maxLength: 8192 })),
});
export type ProvidersSaveParams = Static<typeof providersSaveParams>;

const onlyProviderId = params({ id: Type.String({ pattern: providerIdPattern }) });

export const providerMethods = {
  "providers.list": method(noParams).returns<{ providers: ProviderView[] }>(),
  "providers.save": method(providersSaveParams).returns<{ provider: ProviderView }>(),
  /**
   * `keyLeft`: the keychain could not be reached, so a key stored there earlier (if any) is still
   * there; the sentence says where and how to delete it.
   */
  "providers.remove": method(onlyProviderId).returns<{ keyLeft?: string }>(),
  "providers.models": method(onlyProviderId).returns<{ models: string[] }>(),
};
