/**
 * Starts the plugin host process under Node's permission model (docs/contract.md §5.4): plugins may read the
 * plugin host's code, the plugin folders and the SDK, write the plugins' data folders, and
 * nothing else: no child processes, no native addons. Its environment is built from an
 * allowlist, so no key, `key_env` variable or web token reaches it.
 *
 * The model is switched on in one of two places (`confinement`, permission-flags.ts): on the
 * process (a Node process; the default) or on each plugin's worker (Electron's utility process,
 * which ignores process-level permission flags). How the process is started is a
 * `SpawnPluginHost`: a Node process on a sealed pipe by default; the desktop shell may pass
 * Electron's utility process instead (electron/plugin-host-utility.ts). Either way nothing runs a
 * plugin unconfined: the plugin host refuses to run without the process-level model when that is
 * the mode (plugin-host-main.ts), and each worker refuses without its own (worker-confinement.ts).
 */
import { spawn } from "node:child_process";
import type { Duplex } from "node:stream";
import type { FromPluginHost, ToPluginHost } from "../boundary.js";
import { encodePluginHostArgs, type SpareWorkers } from "./plugin-host-args.js";
import type { PluginHostBundle } from "../plugin-host-bundle.js";
import { processPermissionFlags, type Confinement, type PluginGrants } from "./permission-flags.js";
import {
  CHANNEL_FD,
  CHANNEL_KEY_ENV,
  ChannelTamperedError,
  EXIT_CHANNEL_TAMPERED,
  newChannelKey,
  SealedChannel,
} from "../channel/sealed-channel.js";

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
  /** The version of the Node at `execPath` when it is not this one (its permission flag's spelling). */
  nodeVersion?: string;
  env?: Record<string, string>;
  /** How long the process may take to say it is ready. */
  readyTimeoutMs?: number;
  /** Starts the process; `spawnNodePluginHost` when absent. */
  spawn?: SpawnPluginHost;
  /** Workers to start at once, before their plugins are known (plugin-host-main.ts). */
  spares?: SpareWorkers;
  /**
   * Where the permission model is switched on: "process" (default) puts the flags on the plugin
   * host process; "worker" starts the process without them and puts them on each plugin's worker
   * (Electron's utility process, which does not apply process-level flags).
   */
  confinement?: Confinement;
}

export type { SpareWorkers } from "./plugin-host-args.js";
export { permissionFlag } from "./permission-flags.js";

/** A started plugin host as the runtime drives it, whatever started it. */
export interface PluginHostChild {
  readonly pid: number | undefined;
  /** Its stderr, piped; stdout is never read. */
  readonly stderr: NodeJS.ReadableStream | null;
  /** Whether a message can still reach it. */
  readonly connected: boolean;
  /** Why its channel was given up, when someone else used it (sealed-channel.ts). */
  readonly channelFault?: string | null;
  send(message: ToPluginHost): void;
  kill(): void;
  onMessage(listener: (message: FromPluginHost) => void): void;
  /** `code` null with a signal when it was killed. */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  onError(listener: (error: Error) => void): void;
}

export type SpawnPluginHost = (
  entry: string,
  options: { execArgv: string[]; env: Record<string, string>; execPath?: string; args?: string[] },
) => PluginHostChild;

/**
 * A Node process (the desktop passes Electron's binary with ELECTRON_RUN_AS_NODE) talking over a
 * sealed pipe on its fd 3 (sealed-channel.ts), not Node's IPC channel: that channel is an fd a
 * plugin's worker can reach as well, and a line of garbage on it throws inside the host.
 */
export const spawnNodePluginHost: SpawnPluginHost = (entry, options) => {
  const key = newChannelKey();
  const child = spawn(
    options.execPath ?? process.execPath,
    [...options.execArgv, entry, ...(options.args ?? [])],
    {
      env: { ...options.env, [CHANNEL_KEY_ENV]: key.toString("hex") },
      // stdout is dropped: a plugin must not print lines a script reading the app's stdout trusts.
      stdio: ["ignore", "ignore", "pipe", "pipe"],
    },
  );
  const messages: ((message: FromPluginHost) => void)[] = [];
  let channelFault: string | null = null;
  const pipe = child.stdio[CHANNEL_FD] as Duplex;
  const channel = new SealedChannel<ToPluginHost, FromPluginHost>(pipe, key, "to-plugin-host", {
    onMessage: (message) => messages.forEach((listener) => listener(message)),
    onTampered: (error) => {
      channelFault = error.message;
      child.kill("SIGKILL");
    },
    onClose: () => undefined,
  });
  return {
    get pid() {
      return child.pid;
    },
    stderr: child.stderr,
    get connected() {
      return channel.connected && child.exitCode === null && child.signalCode === null;
    },
    get channelFault() {
      return channelFault;
    },
    send: (message) => channel.send(message),
    kill: () => void child.kill("SIGKILL"),
    onMessage: (listener) => void messages.push(listener),
    onExit: (listener) => void child.on("exit", (code, signal) => listener(code, signal)),
    onError: (listener) => void child.on("error", listener),
  };
};

/** How the plugin host ended: on its own (crash, signal, close), or because a plugin used its channel. */
export type PluginHostExit = "exited" | "channel_tampered";

/** The plugin host found the fault itself (it exits with EXIT_CHANNEL_TAMPERED and says no more). */
const TAMPERED_IN_PLUGIN_HOST = new ChannelTamperedError("a plugin wrote to or read from it").message;

export interface PluginHostEvents {
  onMessage(message: FromPluginHost): void;
  /**
   * The process ended (crash, signal, close, or a channel someone else used: sealed-channel.ts);
   * `why` is in plain words.
   */
  onExit(why: string, cause: PluginHostExit): void;
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

/** What plugins may touch: the plugin host's own code, the plugin folders and the SDK; the data folders. */
export function pluginGrants(launch: PluginHostLaunch): PluginGrants {
  return { read: [launch.bundle.dir, ...launch.readPaths], write: [...launch.writePaths] };
}

/** The plugin host process's own flags: the permission model's when it confines the process, else none. */
export function permissionFlags(launch: PluginHostLaunch, nodeVersion = launch.nodeVersion): string[] {
  if (launch.confinement === "worker") return [];
  return processPermissionFlags(pluginGrants(launch), nodeVersion);
}

export class PluginHostProcess {
  private exited = false;

  private constructor(private readonly child: PluginHostChild) {}

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return !this.exited;
  }

  static start(launch: PluginHostLaunch, events: PluginHostEvents): Promise<PluginHostProcess> {
    const child = (launch.spawn ?? spawnNodePluginHost)(launch.bundle.entry, {
      execArgv: permissionFlags(launch),
      env: { ...pluginHostEnv(), ...launch.env },
      ...(launch.execPath && { execPath: launch.execPath }),
      args: encodePluginHostArgs({
        confinement: launch.confinement ?? "process",
        grants: pluginGrants(launch),
        spares: launch.spares ?? null,
      }),
    });
    const host = new PluginHostProcess(child);
    let buffered = "";
    let lastStderrLine = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.trim()) continue;
        lastStderrLine = line.slice(0, 2000);
        events.onStderr?.(lastStderrLine);
      }
    });
    return new Promise((resolve, reject) => {
      let ready = false;
      const timer = setTimeout(() => {
        // Timers run before I/O in a turn of the event loop: after this process was itself held up
        // past the deadline, a ready message already waiting in the pipe is read first.
        setImmediate(() => {
          if (ready) return;
          child.kill();
          reject(new Error("The plugin host did not start within its deadline."));
        });
      }, launch.readyTimeoutMs ?? 10_000);
      child.onMessage((message) => {
        if (message.kind === "ready" && !ready) {
          ready = true;
          clearTimeout(timer);
          resolve(host);
          return;
        }
        if (ready) events.onMessage(message);
      });
      child.onError((error) => {
        if (!ready) {
          clearTimeout(timer);
          reject(error);
        }
      });
      child.onExit((code, signal) => {
        host.exited = true;
        const tampered =
          child.channelFault ?? (code === EXIT_CHANNEL_TAMPERED ? TAMPERED_IN_PLUGIN_HOST : null);
        const why =
          tampered ??
          (signal ? `the plugin host was killed (${signal})` : `the plugin host exited with code ${code}`);
        if (!ready) {
          clearTimeout(timer);
          // Its last stderr line says why (e.g. no permission model); it may still be in flight.
          const fail = () =>
            reject(new Error(`${why} while starting${lastStderrLine ? `: ${lastStderrLine}` : ""}.`));
          const stderr = child.stderr as (NodeJS.ReadableStream & { readableEnded?: boolean }) | null;
          if (!stderr || stderr.readableEnded) return fail();
          const cap = setTimeout(fail, 500);
          stderr.once("end", () => {
            clearTimeout(cap);
            fail();
          });
          return;
        }
        events.onExit(why, tampered ? "channel_tampered" : "exited");
      });
    });
  }

  send(message: ToPluginHost): void {
    if (this.exited || !this.child.connected) return;
    this.child.send(message);
  }

  kill(): void {
    if (!this.exited) this.child.kill();
  }
}
