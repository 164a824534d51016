/**
 * The plugin host in Electron's utility process (the desktop app): the same module as under Node,
 * messages by structured clone through the child's `process.parentPort`, and the allowlisted
 * environment. Electron does not apply Node's permission flags to this process, so it is launched
 * with `confinement: "worker"` (plugin-host-launch.ts): the flags go on each plugin's worker, and
 * `execArgv` here is empty. A worker that finds itself unconfined refuses to run its plugin.
 */
import { utilityProcess } from "electron";
import type { SpawnPluginHost } from "./host/plugins/runtime/launch/plugin-host-process.js";
import type { FromPluginHost } from "./host/plugins/runtime/boundary.js";

export const spawnInUtilityProcess: SpawnPluginHost = (entry, options) => {
  const child = utilityProcess.fork(entry, options.args ?? [], {
    execArgv: options.execArgv,
    env: options.env,
    // stdout is dropped, as under Node: a plugin must not print lines a script trusts.
    stdio: ["ignore", "ignore", "pipe"],
    serviceName: "Hermes plugin host",
  });
  let exited = false;
  child.on("exit", () => (exited = true));
  return {
    get pid() {
      return child.pid;
    },
    stderr: child.stderr,
    get connected() {
      return !exited;
    },
    send: (message) => child.postMessage(message),
    kill: () => void child.kill(),
    onMessage: (listener) => void child.on("message", (message: FromPluginHost) => listener(message)),
    // A utility process reports its exit code only; a kill shows as a non-zero code.
    onExit: (listener) => void child.on("exit", (code: number) => listener(code, null)),
    onError: (listener) =>
      void child.on("error", (type: string, location: string) =>
        listener(new Error(`the plugin host failed: ${type} at ${location}`)),
      ),
  };
};
