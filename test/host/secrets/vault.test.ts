import { randomBytes } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { InvalidVaultInputError } from "../../../electron/host/secrets/errors.js";
import {
  accountFor,
  createKeytarVault,
  KEYCHAIN_SERVICE_ENV,
  type Vault,
} from "../../../electron/host/secrets/vault.js";

// These tests talk to the real Secret Service through keytar; they need a session bus with an
// unlocked gnome-keyring. The project's test runner provides one; run by hand like this:
const HOW_TO_RUN = `No D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset), so no Secret Service can answer.
Run these tests inside a session with an unlocked gnome-keyring:
  KR=$(mktemp -d); env HOME=$KR XDG_DATA_HOME=$KR/data XDG_RUNTIME_DIR=$KR/run sh -c 'mkdir -p -m 700 "$XDG_RUNTIME_DIR"; dbus-run-session -- sh -c "echo -n pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null; npx vitest run test/host/secrets"'`;

const FAKE_KEY = "sk-test-0000000000000000000000000000aaaa";
const FAKE_WORK_KEY = "sk-test-1111111111111111111111111111bbbb";
const FAKE_ENV_KEY = "sk-test-2222222222222222222222222222cccc";

const uniqueService = () => `hermes-desktop-test-${randomBytes(6).toString("hex")}`;

beforeAll(() => {
  if (process.platform === "linux" && !process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error(HOW_TO_RUN);
});

// Every vault made here is emptied after its test, so the real keychain keeps nothing.
const opened: Vault[] = [];
function openVault(options: { service?: string; env?: Record<string, string | undefined> } = {}): Vault {
  const vault = createKeytarVault({ ...options, service: options.service ?? uniqueService() });
  opened.push(vault);
  return vault;
}

afterEach(async () => {
  for (const vault of opened.splice(0)) {
    for (const account of await vault.listAccounts()) {
      const [provider = "", profile] = account.split(":");
      await vault.deleteKey(provider, profile);
    }
  }
});

describe("keytar vault round trip", () => {
  it("stores, reads, lists and deletes keys per provider and profile", async () => {
    const vault = openVault();
    expect(await vault.getKey("openrouter")).toBeNull();

    await vault.setKey("openrouter", FAKE_KEY);
    await vault.setKey("openrouter", FAKE_WORK_KEY, "work");
    await vault.setKey("local", "sk-test-local-0000");

    expect(await vault.getKey("openrouter")).toBe(FAKE_KEY);
    expect(await vault.getKey("openrouter", "work")).toBe(FAKE_WORK_KEY);
    expect(await vault.getKey("openrouter", "default")).toBe(FAKE_KEY);
    expect(await vault.listAccounts()).toEqual(["local", "openrouter", "openrouter:work"]);

    expect(await vault.deleteKey("openrouter", "work")).toBe(true);
    expect(await vault.getKey("openrouter", "work")).toBeNull();
    expect(await vault.deleteKey("openrouter", "work")).toBe(false);
    expect(await vault.listAccounts()).toEqual(["local", "openrouter"]);
  });

  it("overwrites a key and trims pasted whitespace", async () => {
    const vault = openVault();
    await vault.setKey("openrouter", FAKE_KEY);
    await vault.setKey("openrouter", `  ${FAKE_WORK_KEY}\n`);
    expect(await vault.getKey("openrouter")).toBe(FAKE_WORK_KEY);
    expect(await vault.listAccounts()).toEqual(["openrouter"]);
  });

  it("keeps services apart", async () => {
    const first = openVault();
    const second = openVault();
    await first.setKey("openrouter", FAKE_KEY);
    expect(await second.getKey("openrouter")).toBeNull();
    expect(await second.listAccounts()).toEqual([]);
  });

  it("takes its service from HERMES_DESKTOP_KEYCHAIN_SERVICE when none is given", async () => {
    const service = uniqueService();
    const named = createKeytarVault({ env: { [KEYCHAIN_SERVICE_ENV]: ` ${service} ` } });
    opened.push(named);
    await named.setKey("openrouter", FAKE_KEY);
    expect(await openVault({ service }).getKey("openrouter")).toBe(FAKE_KEY);
    expect(await openVault().getKey("openrouter")).toBeNull();
  });

  it("refuses empty keys and ambiguous account names without storing anything", async () => {
    const vault = openVault();
    await expect(vault.setKey("openrouter", "   ")).rejects.toMatchObject({
      name: "InvalidVaultInputError",
      reason: "invalid_params",
    });
    await expect(vault.setKey("open:router", FAKE_KEY)).rejects.toBeInstanceOf(InvalidVaultInputError);
    await expect(vault.setKey("openrouter", FAKE_KEY, "")).rejects.toBeInstanceOf(InvalidVaultInputError);
    expect(await vault.listAccounts()).toEqual([]);
  });
});

describe("accountFor", () => {
  it("maps the default profile to the provider id and others to provider:profile", () => {
    expect(accountFor("openrouter")).toBe("openrouter");
    expect(accountFor("openrouter", "default")).toBe("openrouter");
    expect(accountFor("openrouter", "work")).toBe("openrouter:work");
  });
});

describe("keyHint", () => {
  it("is exactly the last 4 characters of the key, or null without one", async () => {
    const vault = openVault();
    expect(await vault.keyHint("openrouter")).toBeNull();
    await vault.setKey("openrouter", FAKE_KEY);
    await vault.setKey("openrouter", FAKE_WORK_KEY, "work");
    expect(await vault.keyHint("openrouter")).toBe("aaaa");
    expect(await vault.keyHint("openrouter", undefined, "work")).toBe("bbbb");
    expect(await vault.keyHint("local")).toBeNull();
  });
});

describe("key_env precedence", () => {
  it("uses the variable over the keychain, removes it from the environment and remembers it", async () => {
    const env: Record<string, string | undefined> = { OPENROUTER_API_KEY: FAKE_ENV_KEY, OTHER: "kept" };
    const vault = openVault({ env });
    await vault.setKey("openrouter", FAKE_KEY);

    expect(await vault.resolveKey("openrouter", "OPENROUTER_API_KEY")).toBe(FAKE_ENV_KEY);
    expect(env).toEqual({ OTHER: "kept" });
    // Later calls still get the value although the environment no longer has it.
    expect(await vault.resolveKey("openrouter", "OPENROUTER_API_KEY")).toBe(FAKE_ENV_KEY);
    expect(await vault.keyHint("openrouter", "OPENROUTER_API_KEY")).toBe("cccc");
    // The keychain entry is untouched and still what the provider uses without key_env.
    expect(await vault.resolveKey("openrouter")).toBe(FAKE_KEY);
    expect(vault.knownKeys()).toContain(FAKE_ENV_KEY);
  });

  it("falls back to the keychain when the variable is unset or blank", async () => {
    const env: Record<string, string | undefined> = { BLANK_KEY: "  " };
    const vault = openVault({ env });
    expect(await vault.resolveKey("openrouter", "MISSING_KEY")).toBeNull();
    await vault.setKey("openrouter", FAKE_KEY);
    expect(await vault.resolveKey("openrouter", "MISSING_KEY")).toBe(FAKE_KEY);
    expect(await vault.resolveKey("openrouter", "BLANK_KEY")).toBe(FAKE_KEY);
  });

  it("leaves key_env alone for a named profile, which asks for its own stored key", async () => {
    const env: Record<string, string | undefined> = { OPENROUTER_API_KEY: FAKE_ENV_KEY };
    const vault = openVault({ env });
    await vault.setKey("openrouter", FAKE_WORK_KEY, "work");
    expect(await vault.resolveKey("openrouter", "OPENROUTER_API_KEY", "work")).toBe(FAKE_WORK_KEY);
    expect(env.OPENROUTER_API_KEY).toBe(FAKE_ENV_KEY);
  });

  it("reads and removes the variable from process.env by default", async () => {
    const name = `HERMES_TEST_KEY_${randomBytes(4).toString("hex").toUpperCase()}`;
    process.env[name] = FAKE_ENV_KEY;
    try {
      const vault = openVault();
      expect(await vault.resolveKey("openrouter", name)).toBe(FAKE_ENV_KEY);
      expect(name in process.env).toBe(false);
      expect(await vault.resolveKey("openrouter", name)).toBe(FAKE_ENV_KEY);
    } finally {
      delete process.env[name];
    }
  });
});

describe("knownKeys", () => {
  it("collects every key stored, read or listed, including ones stored by an earlier run", async () => {
    const service = uniqueService();
    const earlierRun = openVault({ service });
    await earlierRun.setKey("openrouter", FAKE_KEY);
    await earlierRun.setKey("openrouter", FAKE_WORK_KEY, "work");
    expect([...earlierRun.knownKeys()].sort()).toEqual([FAKE_KEY, FAKE_WORK_KEY]);

    const thisRun = openVault({ service });
    expect(thisRun.knownKeys()).toEqual([]);
    await thisRun.listAccounts();
    expect([...thisRun.knownKeys()].sort()).toEqual([FAKE_KEY, FAKE_WORK_KEY]);
  });

  it("returns the same array until a new key is seen", async () => {
    const vault = openVault();
    await vault.setKey("openrouter", FAKE_KEY);
    const before = vault.knownKeys();
    await vault.getKey("openrouter");
    expect(vault.knownKeys()).toBe(before);
    await vault.setKey("local", FAKE_WORK_KEY);
    expect(vault.knownKeys()).not.toBe(before);
    expect(vault.knownKeys()).toContain(FAKE_WORK_KEY);
  });
});

describe("key cache", () => {
  it("reads a key from the keychain once, and follows its own writes and deletes", async () => {
    const { createKeytarKeychain } = await import("../../../electron/host/secrets/keychain.js");
    const { createVault } = await import("../../../electron/host/secrets/vault.js");
    const real = createKeytarKeychain({ service: uniqueService() });
    let reads = 0;
    const counting = { ...real, get: (account: string) => (reads++, real.get(account)) };
    const vault = createVault(counting, {});
    opened.push(vault);
    await vault.setKey("cached", FAKE_KEY);
    expect(await vault.resolveKey("cached")).toBe(FAKE_KEY);
    expect(await vault.resolveKey("cached")).toBe(FAKE_KEY);
    expect(reads).toBe(0);
    await vault.deleteKey("cached");
    expect(await vault.getKey("cached")).toBeNull();
    expect(await real.get("cached")).toBeNull();
    expect(await vault.getKey("unseen")).toBeNull();
    expect(await vault.getKey("unseen")).toBeNull();
    expect(reads).toBe(1);
  });
});
