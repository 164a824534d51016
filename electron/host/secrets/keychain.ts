import { systemClock, type Clock } from "../clock.js";
import { KeychainUnavailableError } from "./errors.js";

/**
 * The OS keychain through keytar, reduced to what the vault needs. Every call is bounded by a
 * timeout and every failure becomes a KeychainUnavailableError whose text never holds a secret.
 */
export interface Keychain {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
  list(): Promise<{ account: string; password: string }[]>;
}

/** The part of keytar's API we use (keytar ships CJS; its d.ts is close to this). */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
}

export type KeytarLoader = () => Promise<KeytarApi>;

/** Loaded lazily so a missing or broken native module is an error on first use, not at startup. */
// keytar is an optional dependency (absent where libsecret was missing at install time), so the
// name is not a literal: neither the type-check nor the bundler may require it to be installed.
const keytarModule: string = "keytar";

export const loadKeytar: KeytarLoader = async () => {
  const mod = (await import(keytarModule)) as { default?: KeytarApi } & KeytarApi;
  return mod.default ?? mod;
};

export const DEFAULT_KEYCHAIN_TIMEOUT_MS = 10_000;

export interface KeytarKeychainOptions {
  service: string;
  timeoutMs?: number;
  clock?: Clock;
  load?: KeytarLoader;
}

export function createKeytarKeychain(options: KeytarKeychainOptions): Keychain {
  const { service } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_KEYCHAIN_TIMEOUT_MS;
  const clock = options.clock ?? systemClock;
  const load = options.load ?? loadKeytar;
  let loaded: Promise<KeytarApi> | undefined;

  async function keytar(operation: string): Promise<KeytarApi> {
    // Only a successful load is cached; a failed one is retried on the next call.
    loaded ??= load().catch((cause: unknown) => {
      loaded = undefined;
      throw new KeychainUnavailableError(
        operation,
        `the keychain library (keytar) is not installed or its native module could not be loaded (${messageOf(cause)})`,
        "binding_missing",
      );
    });
    return loaded;
  }

  async function call<T>(
    operation: string,
    secret: string | undefined,
    run: (api: KeytarApi) => Promise<T>,
  ): Promise<T> {
    const api = await keytar(operation);
    try {
      return await withTimeout(
        // keytar validates arguments synchronously; keep such throws inside the promise.
        Promise.resolve().then(() => run(api)),
        timeoutMs,
        clock,
      );
    } catch (cause) {
      throw new KeychainUnavailableError(operation, describeFailure(cause, timeoutMs, secret));
    }
  }

  return {
    get: (account) =>
      call(`reading the key for "${account}"`, undefined, (api) => api.getPassword(service, account)),
    set: (account, secret) =>
      call(`saving the key for "${account}"`, secret, (api) => api.setPassword(service, account, secret)),
    delete: (account) =>
      call(`deleting the key for "${account}"`, undefined, (api) => api.deletePassword(service, account)),
    list: () => call("listing the stored keys", undefined, (api) => api.findCredentials(service)),
  };
}

class KeychainTimeout extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number, clock: Clock): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(new KeychainTimeout()), ms);
    work.then(
      (value) => {
        clock.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clock.clearTimeout(timer);
        reject(error);
      },
    );
  });
}

// Known keytar/libsecret failures, each with the plain-language reason shown to the user.
const KNOWN_FAILURES: { pattern: RegExp; why: string }[] = [
  { pattern: /autolaunch|\$DISPLAY/i, why: "no D-Bus session bus is running" },
  {
    pattern: /org\.freedesktop\.secrets|ServiceUnknown|was not provided/i,
    why: "no Secret Service is running on the session bus",
  },
  {
    pattern: /failed to connect to socket|could not connect|connection refused|no such file/i,
    why: "the D-Bus session bus could not be reached",
  },
  {
    pattern: /locked|dismissed|prompt|cancel/i,
    why: "the keychain is locked or the unlock prompt was dismissed",
  },
];

function describeFailure(cause: unknown, timeoutMs: number, secret: string | undefined): string {
  if (cause instanceof KeychainTimeout) {
    return `the keychain did not answer within ${timeoutMs / 1000} s (an unlock prompt may be waiting)`;
  }
  const text = scrub(messageOf(cause), secret);
  const known = KNOWN_FAILURES.find(({ pattern }) => pattern.test(text));
  return known ? `${known.why} (${text})` : text;
}

function scrub(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join("***") : text;
}

function messageOf(cause: unknown): string {
  const text = cause instanceof Error ? cause.message : String(cause);
  return text.trim().replace(/\.$/, "") || "unknown error";
}
