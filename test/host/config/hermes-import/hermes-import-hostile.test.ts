import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { requireSecretService, startTestHost, type TestHost } from "../../support/test-host.js";
import { tempHome } from "../../support/temp-home.js";
import { hermesHome } from "./hermes-fixture.js";

let t: TestHost | undefined;
let cleanups: (() => void)[] = [];
beforeAll(() => requireSecretService());
afterEach(async () => {
  await t?.dispose();
  t = undefined;
  cleanups.forEach((c) => c());
  cleanups = [];
});

async function start(hermesDir: string): Promise<TestHost> {
  t = await startTestHost({ host: { hermesEnv: { HERMES_HOME: hermesDir } } });
  // A setting of the person's own, which a refused import must leave exactly as it is.
  writeFileSync(join(t.home, "config.yaml"), "display:\n  theme: dark\n");
  return t;
}

function home(fixture?: "openrouter"): string {
  const h = hermesHome(fixture);
  cleanups.push(h.cleanup);
  return h.dir;
}

/** Both preview and apply refuse with invalid_params and a message matching `message`; nothing is written. */
async function expectRefused(host: TestHost, message: RegExp, from?: string): Promise<void> {
  const params = from ? { from } : {};
  for (const [method, extra] of [
    ["settings.import.preview", {}],
    ["settings.import.apply", { keys: [] }],
  ] as const) {
    const answer = await host.call(method, { ...params, ...extra });
    expect(answer.error?.data.reason, method).toBe("invalid_params");
    expect(answer.error?.message, method).toMatch(message);
  }
  expect(readFileSync(join(host.home, "config.yaml"), "utf8")).toBe("display:\n  theme: dark\n");
  expect(existsSync(join(host.home, "config.yaml.before-import"))).toBe(false);
}

describe("settings.import refuses a hostile or broken Hermes set-up, writing nothing", () => {
  it("no config where it looks, or a folder in its place", async () => {
    const dir = home();
    const host = await start(dir);
    await expectRefused(host, /Can't read the Hermes config at .*config\.yaml: it does not exist/);
    mkdirSync(join(dir, "config.yaml"));
    await expectRefused(host, /config\.yaml is not a file/);
  });

  it("a file over 1 MB", async () => {
    const dir = home();
    writeFileSync(
      join(dir, "config.yaml"),
      `model:\n  provider: openrouter\n# ${"x".repeat(10 * 1024 * 1024)}\n`,
    );
    await expectRefused(await start(dir), /is 10\.0 MB; the Hermes config must be at most 1 MB/);
  });

  it("a YAML bomb (aliases that expand without bound)", async () => {
    const dir = home();
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(",")}]`);
    }
    writeFileSync(join(dir, "config.yaml"), levels.join("\n") + "\n");
    await expectRefused(await start(dir), /aliases \(\*name\) expand too far/);
  });

  it("text that is not YAML, or not a mapping", async () => {
    const dir = home();
    writeFileSync(join(dir, "config.yaml"), "model: [unclosed\n");
    const host = await start(dir);
    await expectRefused(host, /is not valid YAML/);
    writeFileSync(join(dir, "config.yaml"), "- just\n- a list\n");
    await expectRefused(host, /holds a list, not Hermes settings/);
  });

  it.each([
    ["model: 42\n", /model in the Hermes config must be a mapping.*a number/],
    [
      "model:\n  provider: openrouter\n  default: [a, b]\n",
      /model\.default in the Hermes config must be text, but it is a list/,
    ],
    ["custom_providers: just-text\n", /custom_providers in the Hermes config must be a mapping/],
    ["plugins:\n  enabled: chart-writer\n", /plugins\.enabled in the Hermes config must be a list/],
    [
      "auxiliary:\n  vision:\n    timeout: soon\n",
      /auxiliary\.vision\.timeout in the Hermes config must be a number/,
    ],
    ["fallback_providers: {provider: x}\n", /fallback_providers in the Hermes config must be a list/],
  ])("a value of the wrong type: %j", async (yaml, message) => {
    const dir = home();
    writeFileSync(join(dir, "config.yaml"), yaml);
    const host = await start(dir);
    await expectRefused(host, message);
    const answer = await host.call("settings.import.preview");
    expect(answer.error?.data.key).toBeTruthy();
  });

  it("a .env that is a symlink to a file outside its folder (one inside it is fine)", async () => {
    const dir = home("openrouter");
    const elsewhere = tempHome("elsewhere-");
    cleanups.push(elsewhere.cleanup);
    writeFileSync(join(elsewhere.dir, "secrets"), "OPENROUTER_API_KEY=sk-test-elsewhere-0000\n");
    renameSync(join(dir, ".env"), join(dir, "env.real"));
    symlinkSync(join(elsewhere.dir, "secrets"), join(dir, ".env"));
    const host = await start(dir);
    await expectRefused(host, /\.env is a symlink to .*secrets, outside its folder/);

    rmSync(join(dir, ".env"));
    symlinkSync("env.real", join(dir, ".env"));
    const preview = await host.call("settings.import.preview");
    expect((preview.result as { keys: { env: string }[] }).keys.map((k) => k.env)).toContain(
      "OPENROUTER_API_KEY",
    );
  });

  it("a `from` that names no file", async () => {
    const dir = home();
    const host = await start(dir);
    await expectRefused(host, /it does not exist/, join(dir, "nope.yaml"));
  });
});

describe("settings.import with a value the app's schema refuses", () => {
  it("lists that provider as not imported, with its key and the main model that used it, and imports the rest", async () => {
    const dir = home();
    writeFileSync(
      join(dir, "config.yaml"),
      [
        "model:",
        "  provider: custom:ftp-box",
        "  default: some-model",
        "custom_providers:",
        "  - name: ftp-box",
        "    base_url: ftp://192.168.1.5/v1",
        "    key_env: FTP_BOX_KEY",
        "display:",
        "  busy_input_mode: interrupt",
        "",
      ].join("\n"),
    );
    writeFileSync(join(dir, ".env"), "FTP_BOX_KEY=ftp-test-key-0000\n");
    const host = await start(dir);
    const preview = (await host.call("settings.import.preview")).result as {
      changes: { key: string }[];
      keys: unknown[];
      notImported: { key: string; reason: string }[];
    };
    expect(preview.changes.map((c) => c.key)).toEqual(["display.busy_input_mode"]);
    expect(preview.keys).toEqual([]);
    const reasons = Object.fromEntries(preview.notImported.map((n) => [n.key, n.reason]));
    expect(reasons["providers.ftp-box"]).toMatch(/base_url/);
    expect(reasons["model.provider"]).toMatch(/Its provider "ftp-box" is not imported/);
    expect(reasons["model.model"]).toMatch(/Its provider "ftp-box" is not imported/);
    await host.call("settings.import.apply", { keys: [] });
    expect(host.host.settings.get().display.busy_input_mode).toBe("interrupt");
    expect(host.host.settings.get().model.provider).toBe("");
  });
});
