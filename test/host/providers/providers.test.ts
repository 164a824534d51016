import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeProvider, type FakeProvider } from "../../fixtures/fake-provider.js";
import { tempHome } from "../support/temp-home.js";
import { requireSecretService, startTestHost, type TestHost } from "../support/test-host.js";

const fakeKey = "sk-test-providers-000000000000000000001234";
let t: TestHost | undefined;
let fake: FakeProvider | undefined;

beforeAll(() => requireSecretService());
afterEach(async () => {
  await t?.dispose();
  await fake?.close();
  t = undefined;
  fake = undefined;
});

describe("providers", () => {
  it("saves the key in the keychain, shows only its last 4 characters and never writes it to config.yaml", async () => {
    t = await startTestHost();
    const saved = await t.call("providers.save", {
      id: "openrouter",
      name: "OpenRouter",
      base_url: "https://openrouter.ai/api/v1/",
      apiKey: fakeKey,
    });
    expect(saved.result).toEqual({
      provider: {
        id: "openrouter",
        name: "OpenRouter",
        base_url: "https://openrouter.ai/api/v1",
        key_env: null,
        hasKey: true,
        keyHint: "1234",
      },
    });
    expect(await t.vault.getKey("openrouter")).toBe(fakeKey);
    const config = readFileSync(join(t.home, "config.yaml"), "utf8");
    expect(config).toContain("openrouter");
    expect(config).not.toContain(fakeKey);
    const listed = await t.call("providers.list");
    expect(JSON.stringify(listed)).not.toContain(fakeKey);
  });

  it("lists the provider's models, and explains a provider error in plain words", async () => {
    fake = await startFakeProvider({ apiKey: fakeKey, models: ["b/model", "a/model"] });
    t = await startTestHost();
    await t.call("providers.save", { id: "fake", name: "Fake", base_url: fake.baseURL, apiKey: fakeKey });
    expect((await t.call("providers.models", { id: "fake" })).result).toEqual({
      models: ["a/model", "b/model"],
    });
    fake.fault({ kind: "http_error", status: 401, message: "bad key" }, { endpoint: "models" });
    const failed = await t.call("providers.models", { id: "fake" });
    expect(failed.error?.data.reason).toBe("provider_error");
    expect(failed.error?.message).toMatch(/Fake answered 401: the API key was not accepted/);
    // The row offers to fix the key: the failure names the field it points at.
    expect(failed.error?.data.key).toBe("apiKey");
    fake.fault({ kind: "http_error", status: 404 }, { endpoint: "models" });
    expect((await t.call("providers.models", { id: "fake" })).error?.data.key).toBe("base_url");
    fake.fault({ kind: "http_error", status: 503 }, { endpoint: "models" });
    expect((await t.call("providers.models", { id: "fake" })).error?.data.key).toBeUndefined();
  });

  it("says that no key is stored when a provider without one answers 401", async () => {
    fake = await startFakeProvider({ apiKey: fakeKey });
    t = await startTestHost();
    await t.call("providers.save", { id: "bare", name: "Bare", base_url: fake.baseURL });
    const failed = await t.call("providers.models", { id: "bare" });
    expect(failed.error?.data.reason).toBe("provider_error");
    // What to do leads; the provider's answer follows.
    expect(failed.error?.message).toMatch(/^No API key is stored for Bare\b.*\(Bare answered 401\.\)$/);
    expect(failed.error?.message).not.toMatch(/not accepted/);
  });

  it("refuses a base URL that is not http(s), naming the field", async () => {
    t = await startTestHost();
    const bad = await t.call("providers.save", { id: "x", name: "X", base_url: "ftp://example.com" });
    expect(bad.error?.data).toMatchObject({ reason: "invalid_params", key: "base_url" });
    expect(existsSync(join(t.home, "config.yaml"))).toBe(false);
  });

  it("sets the main model and keeps it across a host restart", async () => {
    const home = tempHome();
    t = await startTestHost({ home: home.dir });
    await t.call("providers.save", { id: "local", name: "Local", base_url: "http://127.0.0.1:8080/v1" });
    const set = await t.call("model.set", { scope: "main", provider: "LOCAL", model: "qwen3-8b" });
    expect(set.result).toEqual({
      ok: true,
      scope: "main",
      provider: "local",
      model: "qwen3-8b",
      stale_aux: [],
    });
    const unknown = await t.call("model.set", { scope: "main", provider: "nope", model: "m" });
    expect(unknown.error?.data).toMatchObject({ reason: "invalid_params", key: "model.provider" });
    await t.dispose();
    t = await startTestHost({ home: home.dir });
    expect(((await t.call("settings.get")).result as { model: unknown }).model).toEqual({
      provider: "local",
      model: "qwen3-8b",
    });
    await t.dispose();
    t = undefined;
    home.cleanup();
  });
});

describe("providers without a Secret Service", () => {
  it("fails the save with keychain_unavailable and writes nothing", async () => {
    const home = tempHome();
    writeFileSync(join(home.dir, "config.yaml"), "display:\n  busy_input_mode: steer\n");
    const before = readFileSync(join(home.dir, "config.yaml"), "utf8");
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [
          "--import",
          "tsx",
          join(__dirname, "fixtures", "save-provider.ts"),
          home.dir,
          "hermes-desktop-test-nobus",
          fakeKey,
        ],
        {
          env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/bus", DISPLAY: "" },
          timeout: 30_000,
        },
        (err, stdout) => (stdout ? resolve(stdout) : reject(err ?? new Error("no output"))),
      ),
    );
    const response = JSON.parse(out.trim().split("\n").at(-1)!);
    expect(response.error.data.reason).toBe("keychain_unavailable");
    expect(response.error.message).toMatch(/keychain/i);
    expect(response.error.message).toMatch(/key_env/);
    expect(response.error.message).not.toContain(fakeKey);
    expect(readFileSync(join(home.dir, "config.yaml"), "utf8")).toBe(before);
    home.cleanup();
  });

  it("still reaches a keyless local server, and says why no key was sent to one that wants it", async () => {
    const open = await startFakeProvider();
    const locked = await startFakeProvider({ apiKey: fakeKey });
    const home = tempHome();
    try {
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [
            "--import",
            "tsx",
            join(__dirname, "fixtures", "no-keychain-requests.ts"),
            home.dir,
            open.baseURL,
            locked.baseURL,
          ],
          {
            env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/bus", DISPLAY: "" },
            timeout: 30_000,
          },
          (err, stdout) => (stdout ? resolve(stdout) : reject(err ?? new Error("no output"))),
        ),
      );
      const { openModels, lockedModels, reply, removed, remaining, info } = JSON.parse(
        out.trim().split("\n").at(-1)!,
      );
      // A provider that only ever used key_env goes, with a word about keys the keychain may still hold.
      expect(removed.result.keyLeft).toMatch(/account "envonly"/);
      expect(remaining).toEqual(["open", "locked"]);
      const notice = info.result.notices.find((n: { kind: string }) => n.kind === "keychain_unavailable");
      expect(notice?.message).toMatch(/“API key”.*“Key environment variable”/s);
      expect(openModels.result.models.length).toBeGreaterThan(0);
      expect(reply).toBe("Echo: hi");
      expect(lockedModels.error.data.reason).toBe("provider_error");
      expect(lockedModels.error.message).toMatch(/answered 401/);
      expect(lockedModels.error.message).toMatch(/No key was sent: The OS keychain is not available/);
    } finally {
      await open.close();
      await locked.close();
      home.cleanup();
    }
  });
});
