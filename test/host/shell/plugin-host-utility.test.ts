// The desktop path of the plugin host through Electron's utility process, against a stand-in for
// `utilityProcess.fork` that starts a real Node child with the `process.parentPort` Electron gives
// one (test/host/shell/support/parent-port-shim.mjs): the real plugin host and a real plugin run.
import { fork, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startTestHost, type TestHost } from "../support/test-host.js";
import { tempHome } from "../support/temp-home.js";
import { writePlugin } from "../plugins/plugin-rig.js";

const shim = path.join(import.meta.dirname, "support", "parent-port-shim.mjs");
const forks: Array<{ entry: string; options: { execArgv: string[]; env: Record<string, string> } }> = [];
/** What the stand-in drops from execArgv: a runtime that ignores the permission flags. */
let ignorePermissionFlags = false;

/** UtilityProcess as Electron shapes it: postMessage, kill, pid, stderr, 'message' and 'exit' (code only). */
class FakeUtilityProcess extends EventEmitter {
  readonly stderr: ChildProcess["stderr"];
  constructor(private readonly child: ChildProcess) {
    super();
    this.stderr = child.stderr;
    child.on("message", (message) => this.emit("message", message));
    child.on("exit", (code, signal) => this.emit("exit", code ?? (signal ? 1 : 0)));
  }
  get pid() {
    return this.child.pid;
  }
  postMessage(message: unknown) {
    this.child.send(message as never);
  }
  kill() {
    return this.child.kill("SIGKILL");
  }
}

vi.mock("electron", () => ({
  utilityProcess: {
    fork(entry: string, _args: string[], options: { execArgv: string[]; env: Record<string, string> }) {
      forks.push({ entry, options });
      const flags = ignorePermissionFlags
        ? []
        : [...options.execArgv, `--allow-fs-read=${path.dirname(shim)}/`];
      const child = fork(entry, [], {
        execArgv: [...flags, "--import", shim],
        env: options.env,
        serialization: "advanced",
        stdio: ["ignore", "ignore", "pipe", "ipc"],
      });
      return new FakeUtilityProcess(child);
    },
  },
}));

const { spawnInUtilityProcess } = await import("../../../electron/plugin-host-utility.js");

let t: TestHost | undefined;
let temp: { dir: string; cleanup(): void } | undefined;
afterEach(async () => {
  await t?.dispose();
  temp?.cleanup();
  t = undefined;
  forks.length = 0;
  ignorePermissionFlags = false;
});

async function hostWithEchoPlugin(): Promise<TestHost> {
  temp = tempHome("hermes-utility-");
  writePlugin(path.join(temp.dir, "plugins"), "echo", {
    "index.js": `export function register(ctx) {
      ctx.registerCommand({ name: "echo", handler: async (args) => ({ said: args, env: Object.keys(process.env) }) });
    }`,
  });
  t = await startTestHost({
    home: temp.dir,
    host: { bundledPluginsDir: null, pluginHostLaunch: { spawn: spawnInUtilityProcess } },
  });
  await t.host.plugins.ready();
  return t;
}

describe("the plugin host in Electron's utility process", () => {
  it("runs a plugin there, with the permission flags and the allowlisted environment", async () => {
    const host = await hostWithEchoPlugin();
    const answer = (await host.call("plugins.setEnabled", { id: "echo", enabled: true })) as {
      result?: { plugin: { status: string } };
    };
    expect(answer.result?.plugin.status).toBe("loaded");
    const reply = await host.host.pluginRegistries.commands
      .get("echo")!
      .handler("hello", { sessionId: "s", gatewaySessionKey: "g" });
    expect(reply).toMatchObject({ said: "hello" });

    expect(forks).toHaveLength(1);
    const { execArgv, env } = forks[0]!.options;
    expect(execArgv[0]).toMatch(/^--(experimental-)?permission$/);
    expect(execArgv).toContain("--allow-worker");
    expect(execArgv.some((flag) => flag.startsWith("--allow-child-process"))).toBe(false);
    expect(
      Object.keys(env).every((name) => ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ"].includes(name)),
    ).toBe(true);
  }, 30_000);

  it("fails closed when the runtime ignores the permission flags: no plugin runs, and it says why", async () => {
    ignorePermissionFlags = true;
    const host = await hostWithEchoPlugin();
    const answer = (await host.call("plugins.setEnabled", { id: "echo", enabled: true })) as {
      result?: { plugin: { status: string; error?: string } };
    };
    expect(answer.result?.plugin.status).toBe("failed");
    expect(answer.result?.plugin.error).toContain("permission model");
    expect(host.host.pluginRegistries.commands.get("echo")).toBeUndefined();
  }, 30_000);
});
