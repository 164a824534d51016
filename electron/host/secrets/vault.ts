import type { Clock } from "../clock.js";
import { InvalidVaultInputError } from "./errors.js";
import { createKeytarKeychain, type Keychain, type KeytarLoader } from "./keychain.js";

/**
 * Where API keys live (docs/contract.md §4): the OS keychain, one account per provider id or auth profile,
 * or a provider's `key_env` variable when that is set. Keys go no further than the host; the UI
 * gets `keyHint` only.
 *
 * Profiles: no profile (or "default") is the provider's default profile, stored under the
 * provider id; any other profile is stored as `<provider>:<profile>` (e.g. `openrouter:work`).
 */
export interface Vault {
  /** The key stored in the keychain for this account, or null. */
  getKey(providerId: string, profile?: string): Promise<string | null>;
  /** Stores the key (trimmed); throws KeychainUnavailableError when no keychain answers. */
  setKey(providerId: string, key: string, profile?: string): Promise<void>;
  /** True when a stored key was removed. */
  deleteKey(providerId: string, profile?: string): Promise<boolean>;
  /** Every account stored under this vault's service, sorted (e.g. `["local", "openrouter:work"]`). */
  listAccounts(): Promise<string[]>;
  /**
   * The key a request to this provider uses: the `keyEnv` variable when it is set (default
   * profile only, since a named profile asks for a specific stored key), else the keychain.
   */
  resolveKey(providerId: string, keyEnv?: string | null, profile?: string): Promise<string | null>;
  /** The last 4 characters of the key `resolveKey` would use, or null when there is none. */
  keyHint(providerId: string, keyEnv?: string | null, profile?: string): Promise<string | null>;
  /** Every key value this vault has seen (stored, read, listed or taken from env), for redaction. */
  knownKeys(): readonly string[];
}

export const DEFAULT_VAULT_SERVICE = "hermes-desktop";
export const DEFAULT_PROFILE = "default";

export interface KeytarVaultOptions {
  /** Keychain service name; tests use a unique one. */
  service?: string;
  /** Where `key_env` variables are read from and then removed. */
  env?: Record<string, string | undefined>;
  /** Upper bound for one keychain call before it counts as unavailable. */
  timeoutMs?: number;
  clock?: Clock;
  /** How keytar is loaded; the default imports the `keytar` package lazily. */
  loadKeytar?: KeytarLoader;
}

/**
 * Names the keychain service instead of "hermes-desktop", so two installs (or parallel test runs,
 * whose deletes would otherwise race another run's listing of the same service) keep their keys apart.
 */
export const KEYCHAIN_SERVICE_ENV = "HERMES_DESKTOP_KEYCHAIN_SERVICE";

export function createKeytarVault(options: KeytarVaultOptions = {}): Vault {
  const env = options.env ?? process.env;
  const keychain = createKeytarKeychain({
    service: options.service ?? (env[KEYCHAIN_SERVICE_ENV]?.trim() || DEFAULT_VAULT_SERVICE),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.clock && { clock: options.clock }),
    ...(options.loadKeytar && { load: options.loadKeytar }),
  });
  return createVault(keychain, env);
}

/** The vault over any Keychain; `createKeytarVault` is the production wiring. */
export function createVault(keychain: Keychain, env: Record<string, string | undefined>): Vault {
  // Values taken out of the environment, by variable name, so later reads still find them.
  const fromEnv = new Map<string, string>();
  const seen = new Set<string>();
  // Keys by account, so a turn doesn't pay a D-Bus round trip per request. Only this vault
  // writes its service's entries, so set/delete/list keep the cache true.
  const cache = new Map<string, string | null>();
  let seenSnapshot: readonly string[] = [];

  function remember(key: string | null): string | null {
    if (key !== null && key !== "" && !seen.has(key)) {
      seen.add(key);
      // A new array only when something changed, so callers can cache on identity.
      seenSnapshot = Object.freeze([...seen]);
    }
    return key;
  }

  function takeFromEnv(name: string): string | null {
    const remembered = fromEnv.get(name);
    if (remembered !== undefined) return remembered;
    const value = env[name];
    if (value === undefined || value.trim() === "") return null;
    // Removed so plugin code cannot find it in process.env (docs/contract.md §4).
    delete env[name];
    const key = value.trim();
    fromEnv.set(name, key);
    return remember(key);
  }

  const vault: Vault = {
    async getKey(providerId, profile) {
      const account = accountFor(providerId, profile);
      if (cache.has(account)) return cache.get(account) ?? null;
      const key = remember(await keychain.get(account));
      cache.set(account, key);
      return key;
    },

    async setKey(providerId, key, profile) {
      const account = accountFor(providerId, profile);
      const trimmed = typeof key === "string" ? key.trim() : "";
      if (trimmed === "") {
        throw new InvalidVaultInputError(
          `The API key for "${account}" is empty; paste the key and save again.`,
        );
      }
      cache.delete(account);
      await keychain.set(account, trimmed);
      cache.set(account, remember(trimmed));
    },

    async deleteKey(providerId, profile) {
      const account = accountFor(providerId, profile);
      cache.delete(account);
      const removed = await keychain.delete(account);
      cache.set(account, null);
      return removed;
    },

    async listAccounts() {
      const credentials = await keychain.list();
      cache.clear();
      for (const { account, password } of credentials) cache.set(account, remember(password));
      // Secret Service returns credentials in no stable order.
      return credentials.map(({ account }) => account).sort();
    },

    async resolveKey(providerId, keyEnv, profile) {
      const account = accountFor(providerId, profile);
      if (keyEnv && account === providerId) {
        const key = takeFromEnv(keyEnv);
        if (key !== null) return key;
      }
      return vault.getKey(providerId, profile);
    },

    async keyHint(providerId, keyEnv, profile) {
      const key = await vault.resolveKey(providerId, keyEnv, profile);
      return key === null ? null : key.slice(-4);
    },

    knownKeys: () => seenSnapshot,
  };
  return vault;
}

/** The keychain account of a provider's profile: `openrouter`, or `openrouter:work`. */
export function accountFor(providerId: string, profile?: string): string {
  if (typeof providerId !== "string" || providerId.trim() === "" || providerId.includes(":")) {
    throw new InvalidVaultInputError(
      `Provider id "${String(providerId)}" cannot hold a key: use a non-empty id without ":".`,
    );
  }
  if (profile === undefined || profile === DEFAULT_PROFILE) return providerId;
  if (typeof profile !== "string" || profile.trim() === "") {
    throw new InvalidVaultInputError(
      `Auth profile of "${providerId}" is empty: leave it out for the default profile or name it.`,
    );
  }
  return `${providerId}:${profile}`;
}
