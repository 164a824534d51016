/**
 * The key a provider request carries. A keychain that is locked or missing must not stop a
 * keyless local server (llama.cpp, Ollama…) from answering, so the request goes out without a key
 * and the keychain problem is kept to explain a 401/403 should the provider want one.
 */
import { KeychainUnavailableError } from "../secrets/errors.js";
import type { Vault } from "../secrets/vault.js";
import { ProviderRequestError } from "./provider-request-error.js";

export interface RequestKey {
  apiKey: string | null;
  keychainProblem: KeychainUnavailableError | null;
}

export async function requestKey(
  vault: Vault,
  providerId: string,
  keyEnv: string | null,
  profile?: string,
): Promise<RequestKey> {
  try {
    return { apiKey: await vault.resolveKey(providerId, keyEnv, profile), keychainProblem: null };
  } catch (err) {
    if (err instanceof KeychainUnavailableError) return { apiKey: null, keychainProblem: err };
    throw err;
  }
}

/** What a provider's 401/403 means when no key could be sent; null when a key went out. */
export function missingKeyExplanation(
  key: RequestKey,
  providerName: string,
  keyEnv: string | null,
): string | null {
  if (key.apiKey !== null) return null;
  if (key.keychainProblem) return `No key was sent: ${key.keychainProblem.message}`;
  const source = keyEnv ? ` (and ${keyEnv} is not set)` : "";
  return `No API key is stored for ${providerName}${source}. Add one in Settings → Providers → Edit → API key.`;
}

/**
 * A provider refusing a keyless request is explained by the key that is missing: none stored,
 * or a keychain that couldn't give it — not by "the key was not accepted".
 */
export function withKeychainHint(
  error: ProviderRequestError,
  key: RequestKey,
  route: { providerName: string; keyEnv: string | null },
): ProviderRequestError {
  if (error.status !== 401 && error.status !== 403) return error;
  const explanation = missingKeyExplanation(key, route.providerName, route.keyEnv);
  if (!explanation) return error;
  // What to do leads; the provider's answer follows, for whoever reads on.
  return new ProviderRequestError(
    `${explanation} (${route.providerName} answered ${error.status}.)`,
    error.kind,
    error.providerId,
    error.status,
    key.keychainProblem === null,
  );
}
