/**
 * The one check of a provider's fields for `providers.save`: each failure is a ModelInputError
 * naming the field (`name`, `base_url`, `key_env`) with a sentence that says what to fix; the form
 * shows it under that field. A new provider's id is derived here from its name.
 */
import { checkBaseUrl } from "../models/base-url.js";
import { ModelInputError } from "../models/model-errors.js";
import type { ProvidersSaveParams } from "../rpc/methods/providers.js";
import { isValidProviderId, slugifyProviderId } from "../rpc/shared-rules/provider-id.js";

const keyEnvPattern = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const maxNameLength = 120;

export interface ProviderFields {
  id: string;
  name: string;
  base_url: string;
  key_env: string | null;
}

export function checkProviderFields(
  params: ProvidersSaveParams,
  existingIds: readonly string[],
): ProviderFields {
  const name = params.name.trim();
  if (!name) throw new ModelInputError("Give the provider a name.", "name");
  if (name.length > maxNameLength) {
    throw new ModelInputError(`Keep the name under ${maxNameLength} characters.`, "name");
  }
  const base_url = checkBaseUrl(params.base_url);
  const keyEnv = params.key_env?.trim() || null;
  if (keyEnv && !keyEnvPattern.test(keyEnv)) {
    throw new ModelInputError(
      "Use letters, digits and underscores, not starting with a digit (e.g. MY_API_KEY).",
      "key_env",
    );
  }
  const id = params.id ?? slugifyProviderId(name);
  if (!isValidProviderId(id)) {
    throw new ModelInputError("The name needs at least one letter or digit to make an ID from.", "name");
  }
  if ((params.create || params.id === undefined) && existingIds.includes(id)) {
    throw new ModelInputError(
      `A provider with the ID "${id}" already exists. Edit that one, or pick another name.`,
      "name",
    );
  }
  return { id, name, base_url, key_env: keyEnv };
}
