/**
 * The launch flags (electron/cli-args.ts): web mode refuses anything it does not know, with one line
 * naming the flag and the accepted ones; the Electron shell lets Electron's and Chromium's switches through.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LaunchArgsError, parseLaunchArgs } from "../../../electron/cli-args.js";

const web = { others: "reject" } as const;
const shell = { others: "pass" } as const;
const accepted = "the accepted flags are --port N, --home DIR (or --flag=value)";

describe("parseLaunchArgs", () => {
  it("reads --port and --home, spaced or with =", () => {
    expect(parseLaunchArgs([], web)).toEqual({ port: 0, home: undefined });
    expect(parseLaunchArgs(["--port", "8080", "--home", "/tmp/h"], web)).toEqual({
      port: 8080,
      home: "/tmp/h",
    });
    expect(parseLaunchArgs(["--port=0", "--home=/a=b"], web)).toEqual({ port: 0, home: "/a=b" });
  });

  it("web mode: an unknown flag or a stray argument is an error naming it and the accepted flags", () => {
    expect(() => parseLaunchArgs(["--bogus"], web)).toThrow(
      new LaunchArgsError(`Unknown flag --bogus; ${accepted}`),
    );
    expect(() => parseLaunchArgs(["--port", "1", "--bogus=3"], web)).toThrow(
      `Unknown flag --bogus; ${accepted}`,
    );
    expect(() => parseLaunchArgs(["-x"], web)).toThrow(`Unknown flag -x; ${accepted}`);
    expect(() => parseLaunchArgs(["extra"], web)).toThrow(`Unexpected argument "extra"; ${accepted}`);
  });

  it("a flag without its value is an error, also when the next word is another flag", () => {
    for (const argv of [["--port"], ["--port="], ["--home", "--port", "1"], ["--home", ""]]) {
      const flag = argv[0]!.replace("=", "");
      const value = flag === "--port" ? "N" : "DIR";
      expect(() => parseLaunchArgs(argv, web)).toThrow(
        `${flag} needs a value (${flag} ${value}); ${accepted}`,
      );
      expect(() => parseLaunchArgs(argv, shell)).toThrow(LaunchArgsError);
    }
  });

  it("a port that is not a whole number from 0 to 65535 is refused with the value given", () => {
    for (const bad of ["-1", "65536", "1.5", "abc", " 80"]) {
      expect(() => parseLaunchArgs([`--port=${bad}`], web)).toThrow(
        `--port must be a whole number from 0 to 65535, not "${bad}"; ${accepted}`,
      );
    }
  });

  it("the Electron shell leaves Electron's and Chromium's own switches and the app path alone", () => {
    const argv = [".", "--no-sandbox", "--enable-logging", "--home", "/tmp/h", "--ozone-platform=wayland"];
    expect(parseLaunchArgs(argv, shell)).toEqual({ port: 0, home: "/tmp/h" });
  });
});

/** Runs web mode from its sources with `args`; resolves with its exit code and output. */
function runWeb(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-web-args-"));
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(process.cwd(), "electron", "web.ts"), ...args],
    {
      env: { ...process.env, HERMES_DESKTOP_HOME: home, DBUS_SESSION_BUS_ADDRESS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    child.once("exit", (code) => {
      fs.rmSync(home, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    });
  });
}

describe("npm run web with a bad flag", () => {
  it("exits 2 before serving, with one line that names the flag and lists the accepted ones", async () => {
    const [unknown, missing] = await Promise.all([runWeb(["--bogus"]), runWeb(["--port"])]);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toBe(
      `Unknown flag --bogus; ${accepted}. Usage: npm run web -- [--port N] [--home DIR]\n`,
    );

    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toBe(
      `--port needs a value (--port N); ${accepted}. Usage: npm run web -- [--port N] [--home DIR]\n`,
    );
  });
});
