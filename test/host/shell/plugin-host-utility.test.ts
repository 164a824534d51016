// The desktop path of the plugin host through Electron's utility process, against a stand-in for
// `utilityProcess.fork` that starts a real Node child with the `process.parentPort` Electron gives
// one (test/host/shell/support/parent-port-shim.mjs) and, like Electron, no process-level
// permission model: the real plugin host and a real plugin run, confined by their worker's flags.
import { fork, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startTestHost, type TestHost } from "../support/test-host.js";
import { tempHome } from "../support/temp-home.js";
import { writePlugin } from "../plugins/plugin-rig.js";
import { parsePluginHostArgs } from "../../../electron/host/plugins/runtime/launch/plugin-host-args.js";

const shim = path.join(import.meta.dirname, "support", "parent-port-shim.mjs");
const ignoreWorkerFlags = path.join(import.meta.dirname, "support", "ignore-worker-flags-shim.mjs");
const forks: Array<{
  entry: string;
  args: string[];
  options: { execArgv: string[]; env: Record<string, string>; cwd?: string };
}> = [];
/** The stand-in ignores the permission flags of workers too (Electron ignores the process's). */
let ignoreWorkerPermissionFlags = false;

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
    fork(entry: string, args: string[], options: { execArgv: string[]; env: Record<string, string> }) {
      forks.push({ entry, args, options });
      // Electron drops permission flags from a utility process's execArgv: so does the stand-in.
      const shims = ignoreWorkerPermissionFlags ? [shim, ignoreWorkerFlags] : [shim];
      const child = fork(entry, args, {
        execArgv: shims.flatMap((file) => ["--import", file]),
        env: options.env,
        serialization: "advanced",
        stdio: ["ignore", "ignore", "pipe", "ipc"],
      });
      return new FakeUtilityProcess(child);
    },
  },
}));

const { desktopPluginHostLaunch } = await import("../../../electron/plugin-host-launch.js");

let t: TestHost | undefined;
let temp: { dir: string; cleanup(): void } | undefined;
afterEach(async () => {
  await t?.dispose();
  temp?.cleanup();
  t = undefined;
  forks.length = 0;
  ignoreWorkerPermissionFlags = false;
});

async function hostWithEchoPlugin(): Promise<TestHost> {
  temp = tempHome("hermes-utility-");
  writePlugin(path.join(temp.dir, "plugins"), "echo", {
    "index.js": `import fs from "node:fs";
    export function register(ctx) {
      ctx.registerCommand({ name: "echo", handler: async (args) => {
        let config;
        try { fs.readFileSync(new URL("../../config.yaml", import.meta.url)); config = "read"; } catch (error) { config = error.code; }
        return { said: args, env: Object.keys(process.env), confined: typeof process.permission?.has === "function", config };
      } });
    }`,
  });
  t = await startTestHost({
    home: temp.dir,
    host: {
      bundledPluginsDir: null,
      pluginHostLaunch: desktopPluginHostLaunch({ packaged: true, execPath: "/unused" }),
    },
  });
  await t.host.plugins.ready();
  return t;
}

describe("the plugin host in Electron's utility process", () => {
  it("runs a plugin there, confined by its worker's permission flags, with the allowlisted environment", async () => {
    const host = await hostWithEchoPlugin();
    const answer = (await host.call("plugins.setEnabled", { id: "echo", enabled: true })) as {
      result?: { plugin: { status: string } };
    };
    expect(answer.result?.plugin.status).toBe("loaded");
    const reply = await host.host.pluginRegistries.commands
      .get("echo")!
      .handler("hello", { sessionId: "s", gatewaySessionKey: "g" });
    expect(reply).toEqual({ said: "hello", env: [], confined: true, config: "ERR_ACCESS_DENIED" });

    expect(forks).toHaveLength(1);
    const { execArgv, env } = forks[0]!.options;
    // Nothing Electron would drop: the permission flags go on each worker (plugin-host-args.ts).
    expect(execArgv).toEqual([]);
    const launch = parsePluginHostArgs(forks[0]!.args);
    expect(launch.confinement).toBe("worker");
    expect(launch.grants.write).toEqual(expect.arrayContaining([path.join(temp!.dir, "plugin-data")]));
    expect(
      Object.keys(env).every((name) => ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ"].includes(name)),
    ).toBe(true);
  }, 30_000);

  it("fails closed when the runtime ignores the worker's flags too: the plugin fails, says why, and is not restarted", async () => {
    ignoreWorkerPermissionFlags = true;
    const host = await hostWithEchoPlugin();
    const answer = (await host.call("plugins.setEnabled", { id: "echo", enabled: true })) as {
      result?: { plugin: { status: string; error?: string } };
    };
    expect(answer.result?.plugin.status).toBe("failed");
    expect(answer.result?.plugin.error).toMatch(
      /^Not started: Node's permission model is not in force in its worker .*permission model/,
    );
    expect(host.host.pluginRegistries.commands.get("echo")).toBeUndefined();
    // A refusal is no crash: nothing is scheduled to try again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const listed = (await host.call("plugins.list")).result as {
      plugins: Array<{ id: string; status: string; runtime?: { restarts: number } }>;
    };
    expect(listed.plugins.find((p) => p.id === "echo")).toMatchObject({ status: "failed" });
    expect(listed.plugins.find((p) => p.id === "echo")?.runtime?.restarts ?? 0).toBe(0);
  }, 30_000);
});
