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

/** A provider refusing a keyless request is explained by the keychain that couldn't give the key. */
export function withKeychainHint(error: ProviderRequestError, key: RequestKey): ProviderRequestError {
  if (!key.keychainProblem || (error.status !== 401 && error.status !== 403)) return error;
  return new ProviderRequestError(
    `${error.message} No key was sent: ${key.keychainProblem.message}`,
    error.kind,
    error.providerId,
    error.status,
  );
}
