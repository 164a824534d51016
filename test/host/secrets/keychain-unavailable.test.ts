import { execFile, type ExecFileOptions } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createHost } from "../../../electron/host/create-host.js";
import { KeychainUnavailableError, keychainFixAdvice } from "../../../electron/host/secrets/errors.js";
import { createKeytarVault } from "../../../electron/host/secrets/vault.js";

/** Runs a command and returns its stdout; the fixture ends itself with SIGKILL, so no exit code is expected. */
function run(command: string, args: string[], options: ExecFileOptions): Promise<{ stdout: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { ...options, encoding: "utf8", timeout: 15_000 }, (_error, stdout) =>
      resolve({ stdout: String(stdout) }),
    );
  });
}
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const setKeyFixture = fileURLToPath(new URL("./fixtures/set-key.ts", import.meta.url));
const FAKE_KEY = "sk-test-0000000000000000000000000000dddd";

interface Outcome {
  ok: boolean;
  name?: string;
  reason?: string;
  message?: string;
}

function parseOutcome(stdout: string): Outcome {
  const line = stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(line) as Outcome;
}

/** The parts of the environment a child needs, without any display or session bus. */
function bareEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

function expectHelpfulUnavailable(outcome: Outcome) {
  expect(outcome).toMatchObject({
    ok: false,
    name: "KeychainUnavailableError",
    reason: "keychain_unavailable",
  });
  expect(outcome.message).toMatch(/unlock your keychain/);
  expect(outcome.message).toMatch(/Secret Service/);
  expect(outcome.message).toMatch(/key_env/);
  expect(outcome.message).not.toContain(FAKE_KEY);
  expect(outcome.message).not.toContain("dddd");
}

describe("vault without a reachable keychain", () => {
  it("fails setKey with keychain_unavailable, says why and how to fix, and never shows the key", async () => {
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", setKeyFixture, "hermes-desktop-test-nobus", FAKE_KEY],
      {
        cwd: repoRoot,
        env: { ...bareEnv(), DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/bus" },
      },
    );
    const outcome = parseOutcome(stdout);
    expectHelpfulUnavailable(outcome);
    // The underlying cause is part of the message.
    expect(outcome.message).toMatch(/D-Bus session bus could not be reached|no D-Bus session bus/);
  });

  it("explains a missing session bus when none is configured at all", async () => {
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", setKeyFixture, "hermes-desktop-test-nobus", FAKE_KEY],
      { cwd: repoRoot, env: bareEnv() },
    );
    const outcome = parseOutcome(stdout);
    expectHelpfulUnavailable(outcome);
    expect(outcome.message).toContain("no D-Bus session bus is running");
  });

  it("turns a Secret Service that never answers into keychain_unavailable after the timeout", async () => {
    // A private session bus whose gnome-keyring is frozen (SIGSTOP), so keytar's call hangs.
    const home = await mkdtemp(join(tmpdir(), "hermes-keyring-"));
    await mkdir(join(home, "run"), { mode: 0o700 });
    const script = `
      echo -n pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null
      dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus / org.freedesktop.DBus.StartServiceByName string:org.freedesktop.secrets uint32:0 >/dev/null
      pid=$(dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus / org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets | awk '{print $2}')
      kill -STOP "$pid"
      trap 'kill -CONT "$pid"; kill "$pid"' EXIT
      node --import tsx "$FIXTURE" hermes-desktop-test-hung "$KEY" 500
      exit 0
    `;
    try {
      const { stdout } = await run("dbus-run-session", ["--", "sh", "-c", script], {
        cwd: repoRoot,
        env: {
          ...bareEnv(),
          HOME: home,
          XDG_DATA_HOME: join(home, "data"),
          XDG_RUNTIME_DIR: join(home, "run"),
          FIXTURE: setKeyFixture,
          KEY: FAKE_KEY,
        },
      });
      const outcome = parseOutcome(stdout);
      expectHelpfulUnavailable(outcome);
      expect(outcome.message).toMatch(/did not answer within 0.5 s/);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it("reports a keytar module that cannot be loaded as keychain_unavailable on first use", async () => {
    const missingModule = "hermes-desktop-no-such-keytar";
    const vault = createKeytarVault({
      service: "hermes-desktop-test-noload",
      loadKeytar: () => import(missingModule),
    });
    const error = await vault.setKey("openrouter", FAKE_KEY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeychainUnavailableError);
    expect(error).toMatchObject({ name: "KeychainUnavailableError", reason: "keychain_unavailable" });
    const message = (error as Error).message;
    expect(message).toContain("the keychain library (keytar) is not installed");
    expect(message).toContain(missingModule);
    expect(message).not.toContain(FAKE_KEY);
    expect(error).toMatchObject({ problem: "binding_missing" });
  });
});

describe("keychain fix advice", () => {
  it("tells a Linux user without the binding which package to install and what to rebuild", () => {
    const advice = keychainFixAdvice("binding_missing", "linux");
    expect(advice).toContain("sudo apt install libsecret-1-dev && npm rebuild keytar");
    expect(advice).toContain("sudo dnf install libsecret-devel && npm rebuild keytar");
  });

  it("tells a Linux user whose binding loads but no keychain answers to run gnome-keyring or KWallet", () => {
    const advice = keychainFixAdvice("service_unavailable", "linux");
    expect(advice).toMatch(/desktop session/);
    expect(advice).toMatch(/gnome-keyring or KWallet/);
  });

  it("names the build tools on macOS and Windows", () => {
    expect(keychainFixAdvice("binding_missing", "darwin")).toContain("xcode-select --install");
    expect(keychainFixAdvice("binding_missing", "win32")).toContain("Visual Studio Build Tools");
  });
});

describe("host.info without a keychain", () => {
  const missingKeytar: string = "hermes-desktop-no-such-keytar";
  it("carries a keychain_unavailable notice that says what still works and what to do", async () => {
    const home = await mkdtemp(join(tmpdir(), "hermes-nokeytar-"));
    const vault = createKeytarVault({
      service: "hermes-desktop-test-noload",
      loadKeytar: () => import(missingKeytar),
    });
    const changes: string[] = [];
    const host = createHost({ home, vault, mode: "web", version: "0.0.0-test", bundledPluginsDir: null });
    host.events.subscribe((frame) => changes.push(frame.params.type));
    try {
      await host.keychain.settled();
      const answer = (await host.router.handle(
        { jsonrpc: "2.0", id: 1, method: "host.info", params: {} },
        { connectionId: "test" },
      )) as { result: { notices: { kind: string; message: string }[] } };
      const notice = answer.result.notices.find((n) => n.kind === "keychain_unavailable");
      expect(notice?.message).toContain(
        "No system keychain is available (its library, keytar, is not installed)",
      );
      expect(notice?.message).toContain("Keyless local providers");
      expect(notice?.message).toMatch(/“API key”.*“Key environment variable”/s);
      expect(notice?.message).toContain(keychainFixAdvice("binding_missing"));
      expect(changes).toContain("host.changed");
    } finally {
      await host.close();
      await rm(home, { recursive: true, force: true });
    }
  });
});
