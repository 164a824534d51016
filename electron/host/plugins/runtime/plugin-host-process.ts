/**
 * Starts the plugin host process under Node's permission model (SPEC §5.4): it may read its own
 * code, the plugin folders and the SDK, write the plugins' data folders, start workers, and
 * nothing else: no child processes, no native addons. Its environment is built from an
 * allowlist, so no key, `key_env` variable or web token reaches it.
 */
import { fork, type ChildProcess } from "node:child_process";
import type { FromPluginHost, ToPluginHost } from "./boundary.js";
import type { PluginHostBundle } from "./plugin-host-bundle.js";

/** The only variables the plugin host inherits. */
export const ENV_ALLOWLIST = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ"] as const;

export interface PluginHostLaunch {
  bundle: PluginHostBundle;
  /** Folders plugins may read: the plugin sources and the SDK. */
  readPaths: readonly string[];
  /** Folders plugins may write: the plugins' data folders. */
  writePaths: readonly string[];
  /** The Node binary; the desktop shell may pass Electron's with ELECTRON_RUN_AS_NODE in `env`. */
  execPath?: string;
  env?: Record<string, string>;
  /** How long the process may take to say it is ready. */
  readyTimeoutMs?: number;
}

export interface PluginHostEvents {
  onMessage(message: FromPluginHost): void;
  /** The process ended (crash, signal, or close); `why` is in plain words. */
  onExit(why: string): void;
  /** A line the plugin host wrote to stderr (warnings, uncaught errors). */
  onStderr?(line: string): void;
}

export function pluginHostEnv(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ENV_ALLOWLIST) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Node 20–22 name the permission model `--experimental-permission`; later Nodes `--permission`. */
export function permissionFlag(nodeVersion: string = process.versions.node): string {
  return Number(nodeVersion.split(".")[0]) >= 23 ? "--permission" : "--experimental-permission";
}

export function permissionFlags(launch: PluginHostLaunch): string[] {
  const withSlash = (dir: string) => (dir.endsWith("/") ? dir : `${dir}/`);
  return [
    permissionFlag(),
    `--allow-fs-read=${withSlash(launch.bundle.dir)}`,
    ...launch.readPaths.map((dir) => `--allow-fs-read=${withSlash(dir)}`),
    ...launch.writePaths.map((dir) => `--allow-fs-write=${withSlash(dir)}`),
    "--allow-worker",
    "--no-warnings",
  ];
}

export class PluginHostProcess {
  private exited = false;

  private constructor(private readonly child: ChildProcess) {}

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return !this.exited;
  }

  static start(launch: PluginHostLaunch, events: PluginHostEvents): Promise<PluginHostProcess> {
    const child = fork(launch.bundle.entry, [], {
      execPath: launch.execPath ?? process.execPath,
      execArgv: permissionFlags(launch),
      env: { ...pluginHostEnv(), ...launch.env },
      serialization: "advanced",
      // stdout is dropped: a plugin must not print lines a script reading the app's stdout trusts.
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    const host = new PluginHostProcess(child);
    let buffered = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) if (line.trim()) events.onStderr?.(line.slice(0, 2000));
    });
    return new Promise((resolve, reject) => {
      let ready = false;
      const timer = setTimeout(() => {
        if (ready) return;
        child.kill("SIGKILL");
        reject(new Error("The plugin host did not start within its deadline."));
      }, launch.readyTimeoutMs ?? 10_000);
      child.on("message", (message: FromPluginHost) => {
        if (message.kind === "ready" && !ready) {
          ready = true;
          clearTimeout(timer);
          resolve(host);
          return;
        }
        if (ready) events.onMessage(message);
      });
      child.on("error", (error) => {
        if (!ready) {
          clearTimeout(timer);
          reject(error);
        }
      });
      child.on("exit", (code, signal) => {
        host.exited = true;
        const why = signal
          ? `the plugin host was killed (${signal})`
          : `the plugin host exited with code ${code}`;
        if (!ready) {
          clearTimeout(timer);
          reject(new Error(`${why} while starting.`));
          return;
        }
        events.onExit(why);
      });
    });
  }

  send(message: ToPluginHost): void {
    if (this.exited || !this.child.connected) return;
    this.child.send(message);
  }

  kill(): void {
    if (!this.exited) this.child.kill("SIGKILL");
  }
}
