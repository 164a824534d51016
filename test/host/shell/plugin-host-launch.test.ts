// The plugin host's launch options in both desktop paths (electron/plugin-host-launch.ts): the
// permission flags spelt for the runtime (on the process, or on each worker), the allowlisted
// environment, and nothing secret. The utility-process path runs against a recording
// `utilityProcess.fork`; the ELECTRON_RUN_AS_NODE path runs for real on this Node (which ignores
// the variable) with a probe as the entry module.
import { Worker } from "node:worker_threads";
import { spawnSync } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  ENV_ALLOWLIST,
  PluginHostProcess,
  permissionFlag,
  permissionFlags,
  type PluginHostLaunch,
} from "../../../electron/host/plugins/runtime/launch/plugin-host-process.js";
import { workerPermissionFlags } from "../../../electron/host/plugins/runtime/launch/permission-flags.js";
import { parsePluginHostArgs } from "../../../electron/host/plugins/runtime/launch/plugin-host-args.js";
import { CHANNEL_KEY_ENV } from "../../../electron/host/plugins/runtime/channel/sealed-channel.js";

const forks: Array<{
  entry: string;
  args: string[];
  options: { execArgv: string[]; env: Record<string, string> };
}> = [];

/** Exits at once, as a utility process whose plugin host refused to run would. */
class ExitingUtilityProcess extends EventEmitter {
  readonly pid = 4242;
  readonly stderr = null;
  constructor() {
    super();
    setImmediate(() => this.emit("exit", 1));
  }
  postMessage() {}
  kill() {
    return true;
  }
}

vi.mock("electron", () => ({
  utilityProcess: {
    fork(entry: string, args: string[], options: { execArgv: string[]; env: Record<string, string> }) {
      forks.push({ entry, args, options });
      return new ExitingUtilityProcess();
    },
  },
}));

const { desktopPluginHostLaunch } = await import("../../../electron/plugin-host-launch.js");
const { spawnInUtilityProcess } = await import("../../../electron/plugin-host-utility.js");

const SECRET = "sk-test-never-crosses-0123456789";
const secretEnv = { OPENAI_API_KEY: SECRET, HERMES_DESKTOP_WEB_TOKEN: SECRET, MY_KEY_ENV: SECRET };
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "hermes-launch-"));
  Object.assign(process.env, secretEnv);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const name of Object.keys(secretEnv)) delete process.env[name];
  forks.length = 0;
});

function launchWith(desktop: Partial<PluginHostLaunch>, entrySource = ""): PluginHostLaunch {
  const entry = path.join(dir, "probe.cjs");
  writeFileSync(entry, entrySource);
  return {
    bundle: { entry, dir },
    readPaths: [path.join(dir, "plugins")],
    writePaths: [path.join(dir, "plugin-data")],
    readyTimeoutMs: 20_000,
    ...desktop,
  };
}

describe("the permission model's flag, by runtime", () => {
  it.each([
    ["20.20.2", "--experimental-permission"],
    ["21.7.3", "--experimental-permission"],
    ["22.12.0", "--experimental-permission"],
    ["22.13.0", "--permission"],
    ["22.20.0", "--permission"],
    ["23.4.0", "--experimental-permission"],
    ["23.5.0", "--permission"],
    ["24.11.1", "--permission"],
    ["26.0.0", "--permission"],
  ])("Node %s takes %s", (version, flag) => {
    expect(permissionFlag(version)).toBe(flag);
  });

  it("this Node accepts the spelling picked for it and turns the model on; it refuses the other", () => {
    const probe = ["-e", "process.stdout.write(String(process.permission?.has('child') === false))"];
    const picked = spawnSync(process.execPath, [permissionFlag(), ...probe], { encoding: "utf8" });
    expect(picked.stderr).not.toMatch(/bad option/);
    expect(picked.stdout).toBe("true");
    const other = permissionFlag() === "--permission" ? "--experimental-permission" : "--permission";
    const refused = spawnSync(process.execPath, [other, ...probe], { encoding: "utf8" });
    // Node 20 does not know `--permission`; Node ≥ 24 dropped the old alias.
    const major = Number(process.versions.node.split(".")[0]);
    if (major === 20 || major >= 24) {
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toMatch(/bad option/);
    }
  });

  it("gives reads, writes and workers only: never child processes, addons or WASI", () => {
    for (const version of ["20.20.2", "24.11.1"]) {
      const flags = permissionFlags(launchWith({}), version);
      expect(flags[0]).toBe(permissionFlag(version));
      expect(flags).toContain(`--allow-fs-read=${dir}/`);
      expect(flags).toContain(`--allow-fs-read=${path.join(dir, "plugins")}/`);
      expect(flags).toContain(`--allow-fs-write=${path.join(dir, "plugin-data")}/`);
      expect(flags).toContain("--allow-worker");
      expect(flags.filter((f) => /^--allow-(child-process|addons|wasi)/.test(f))).toEqual([]);
      expect(flags.filter((f) => f.startsWith("--allow-fs-write")).length).toBe(1);
    }
  });
});

describe("a worker's own permission flags (the utility-process path), by runtime", () => {
  const grants = {
    read: ["/opt/Hermes/app", "/home/u/.hermes/plugins"],
    write: ["/home/u/.hermes/plugin-data"],
  };

  it.each([
    ["20.20.2", "--experimental-permission"],
    ["22.12.0", "--experimental-permission"],
    ["22.13.0", "--permission"],
    ["24.11.1", "--permission"],
    ["24.22.3", "--permission"],
  ])(
    "Node %s: %s, the same reads and writes, and no workers, child processes, addons or WASI",
    (version, flag) => {
      expect(workerPermissionFlags(grants, version)).toEqual([
        flag,
        "--allow-fs-read=/opt/Hermes/app/",
        "--allow-fs-read=/home/u/.hermes/plugins/",
        "--allow-fs-write=/home/u/.hermes/plugin-data/",
        "--no-warnings",
      ]);
    },
  );

  it("this Node takes the worker flags picked for it and confines that worker alone; it refuses the other spelling", async () => {
    const flags = workerPermissionFlags({ read: [dir], write: [] });
    const probe = `const { parentPort } = require("node:worker_threads");
      let passwd; try { require("node:fs").readFileSync("/etc/passwd"); passwd = "read"; } catch (error) { passwd = error.code; }
      parentPort.postMessage({ confined: process.permission?.has("child") === false, worker: process.permission?.has("worker"), passwd });`;
    const seen = await new Promise((resolve, reject) => {
      const worker = new Worker(probe, { eval: true, execArgv: flags, env: {} });
      worker.once("message", resolve);
      worker.once("error", reject);
    });
    expect(seen).toEqual({ confined: true, worker: false, passwd: "ERR_ACCESS_DENIED" });
    // This process is not confined by its worker's flags.
    expect((process as { permission?: unknown }).permission).toBeUndefined();
    const other = permissionFlag() === "--permission" ? "--experimental-permission" : "--permission";
    const major = Number(process.versions.node.split(".")[0]);
    if (major === 20 || major >= 24) {
      expect(() => new Worker("", { eval: true, execArgv: [other] })).toThrow(
        expect.objectContaining({ code: "ERR_WORKER_INVALID_EXEC_ARGV" }),
      );
    }
  });
});

describe("the desktop's two launch paths", () => {
  it("picks the utility process when packaged (RunAsNode fuse off), Electron as Node otherwise", () => {
    expect(desktopPluginHostLaunch({ packaged: true, execPath: "/opt/Hermes/hermes-desktop" })).toEqual({
      spawn: spawnInUtilityProcess,
      confinement: "worker",
    });
    expect(
      desktopPluginHostLaunch({ packaged: false, execPath: "/repo/node_modules/electron/dist/electron" }),
    ).toEqual({ execPath: "/repo/node_modules/electron/dist/electron", env: { ELECTRON_RUN_AS_NODE: "1" } });
  });

  it("utility process: no process flags (Electron drops them), the grants for each worker, only the allowlist as env", async () => {
    const launch = launchWith(desktopPluginHostLaunch({ packaged: true, execPath: "/unused" }));
    await expect(
      PluginHostProcess.start(launch, { onMessage: () => undefined, onExit: () => undefined }),
    ).rejects.toThrow(/exited with code 1 while starting/);
    expect(forks).toHaveLength(1);
    const { entry, options } = forks[0]!;
    expect(entry).toBe(launch.bundle.entry);
    expect(options.execArgv).toEqual([]);
    expect(parsePluginHostArgs(forks[0]!.args)).toEqual({
      confinement: "worker",
      grants: { read: [dir, path.join(dir, "plugins")], write: [path.join(dir, "plugin-data")] },
      spares: null,
    });
    expect(
      Object.keys(options.env).every((name) => (ENV_ALLOWLIST as readonly string[]).includes(name)),
    ).toBe(true);
    expect(JSON.stringify(options)).not.toContain(SECRET);
  });

  it("Electron as Node: the child runs under the permission model with the allowlist plus ELECTRON_RUN_AS_NODE", async () => {
    // The probe reports what it was given on stderr, then exits; it is no plugin host, so start fails.
    const probe = `process.stderr.write(JSON.stringify({
      env: Object.keys(process.env), values: Object.values(process.env).join(" "),
      permission: process.permission?.has("child") === false,
      canWriteHome: process.permission?.has("fs.write", ${JSON.stringify(dir)}),
    }) + "\\n"); process.exit(3);`;
    const launch = launchWith(
      desktopPluginHostLaunch({ packaged: false, execPath: process.execPath }),
      probe,
    );
    const lines: string[] = [];
    await expect(
      PluginHostProcess.start(launch, {
        onMessage: () => undefined,
        onExit: () => undefined,
        onStderr: (line) => lines.push(line),
      }),
    ).rejects.toThrow(/exited with code 3 while starting/);
    const seen = JSON.parse(lines.find((line) => line.startsWith("{"))!) as {
      env: string[];
      values: string;
      permission: boolean;
      canWriteHome: boolean;
    };
    expect(seen.permission).toBe(true);
    expect(seen.canWriteHome).toBe(false);
    const allowed = [...ENV_ALLOWLIST, "ELECTRON_RUN_AS_NODE", CHANNEL_KEY_ENV];
    expect(seen.env.filter((name) => !allowed.includes(name))).toEqual([]);
    expect(seen.env).toContain("ELECTRON_RUN_AS_NODE");
    expect(seen.values).not.toContain(SECRET);
  }, 30_000);
});
