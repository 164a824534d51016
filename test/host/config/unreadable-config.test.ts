/* eslint-disable @typescript-eslint/no-explicit-any -- RPC answers are read as plain JSON here. */
/**
 * A config.yaml that cannot be read at all (issue 13): a folder in its place, or a file without
 * read permission. Start-up stops with one line that names the file, says what is wrong and what
 * to do — no stack — and a file that becomes unreadable while the app runs is a notice, with
 * writes refused rather than written over it.
 *
 * Tests run as root, and root reads a mode-000 file anyway; so the permission case runs the real
 * web entry as root without the capabilities that override file modes (`setpriv` drops
 * CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH) against a real mode-000 file. It stays root, so it
 * still reads a checkout that only root may enter (a `mktemp -d` clone is mode 700).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigUnreadableError } from "../../../electron/host/config/config-errors.js";
import { SettingsStore } from "../../../electron/host/config/settings-store.js";
import { startTestHost } from "../support/test-host.js";
import { makeTempHome } from "./config-test-helpers.js";

const dropFileModeOverride = [
  "--inh-caps=-dac_override,-dac_read_search",
  "--bounding-set=-dac_override,-dac_read_search",
  "--",
];
const webEntry = path.join(process.cwd(), "electron", "web.ts");

function startWeb(home: string, withoutModeOverride: boolean) {
  const node = [process.execPath, "--import", "tsx", webEntry, "--port", "0", "--home", home];
  const [command, ...args] = withoutModeOverride ? ["setpriv", ...dropFileModeOverride, ...node] : node;
  return spawnSync(command!, args, {
    env: {
      ...process.env,
      HERMES_DESKTOP_WEB_TOKEN: "unreadable-config-test-token-0123456789",
      HOME: home,
      DBUS_SESSION_BUS_ADDRESS: "",
    },
    encoding: "utf8",
    timeout: 30_000,
  });
}

function expectOneLine(run: ReturnType<typeof startWeb>, file: string, what: RegExp, todo: RegExp): void {
  expect(run.status, run.stderr).toBe(1);
  expect(run.stdout).not.toContain("Hermes Desktop web UI");
  const lines = run.stderr.trim().split("\n");
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toContain(file);
  expect(lines[0]).toMatch(what);
  expect(lines[0]).toMatch(todo);
  expect(run.stderr).not.toMatch(/^\s+at /m);
}

describe("config.yaml that cannot be read", () => {
  it("a folder in its place: the store refuses to start on top of it, saying what to do", () => {
    const home = makeTempHome();
    const file = path.join(home, "config.yaml");
    fs.mkdirSync(file);
    fs.writeFileSync(path.join(file, "keep.txt"), "mine");
    let error: unknown;
    try {
      new SettingsStore({ home }).close();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigUnreadableError);
    expect((error as Error).message).toBe(
      `Hermes Desktop cannot read its settings file ${file}: it is a folder, not a file. ` +
        "Move that folder somewhere else (settings live in that one file), then start again.",
    );
    // Nothing was moved or written.
    expect(fs.readdirSync(home)).toEqual(["config.yaml"]);
    expect(fs.readFileSync(path.join(file, "keep.txt"), "utf8")).toBe("mine");
  });

  it("a folder in its place: `npm run web` exits with one line and no stack", () => {
    const home = makeTempHome();
    const file = path.join(home, "config.yaml");
    fs.mkdirSync(file);
    expectOneLine(startWeb(home, false), file, /it is a folder, not a file/, /Move that folder/);
  });

  it("a mode-000 file, read without permission: one line, no stack, the file untouched", () => {
    const home = makeTempHome();
    const file = path.join(home, "config.yaml");
    fs.writeFileSync(file, "display: {busy_input_mode: steer}\n");
    fs.chmodSync(file, 0o000);
    const asRoot = process.getuid?.() === 0;
    expectOneLine(startWeb(home, asRoot), file, /permission denied/, /chmod 600/);
    fs.chmodSync(file, 0o600);
    expect(fs.readFileSync(file, "utf8")).toBe("display: {busy_input_mode: steer}\n");
  });

  it("a file that becomes a folder while the app runs: a notice, defaults, and writes refused", async () => {
    const t = await startTestHost();
    try {
      await t.call("settings.set", { key: "display.busy_input_mode", value: "steer" });
      const file = path.join(t.home, "config.yaml");
      fs.rmSync(file);
      fs.mkdirSync(file);
      const info: any = await t.call("host.info", {});
      expect(info.result.notices).toEqual([
        expect.objectContaining({ kind: "config_unreadable", message: expect.stringContaining(file) }),
      ]);
      const settings: any = await t.call("settings.get", {});
      expect(settings.result.display?.busy_input_mode ?? "queue").toBe("queue");
      const refused: any = await t.call("settings.set", { key: "display.busy_input_mode", value: "steer" });
      expect(refused.error.data.reason).toBe("config_unreadable");
      expect(refused.error.message).toContain("it is a folder, not a file");
      expect(fs.statSync(file).isDirectory()).toBe(true);
      fs.rmdirSync(file);
    } finally {
      await t.dispose();
    }
  });
});
