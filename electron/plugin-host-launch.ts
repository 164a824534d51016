/**
 * How the desktop starts the plugin host (docs/contract.md §5.4), by the binary it runs in:
 *
 * - A packaged app has the RunAsNode fuse off (build/electron-builder.yml), so Electron's binary
 *   ignores ELECTRON_RUN_AS_NODE and `child_process.fork` cannot work: the plugin host runs in an
 *   Electron utility process (`utilityProcess.fork`) with the allowlisted environment as `env`.
 *   Electron does not apply Node's permission flags to a utility process (its command line is
 *   filtered to a few debug switches; `execArgv` only reaches `process.execArgv`: README, "Plugins
 *   in the packaged app"), so the model is switched on per worker instead (`confinement:
 *   "worker"`): the plugin host, our code, runs unconfined and starts each plugin's worker with the
 *   permission flags in the worker's own `execArgv`, spelt for the Node inside Electron
 *   (permission-flags.ts). Each worker checks the model is in force before any plugin code runs
 *   and refuses otherwise, so a runtime that ignored those flags too fails closed.
 * - `npm start` runs the stock Electron binary (no fuses flipped): it is started as plain Node with
 *   ELECTRON_RUN_AS_NODE and the flags on its command line (`confinement: "process"`), where the
 *   whole plugin host process is confined, as in the tests.
 *
 * Either way the environment is the allowlist of plugin-host-process.ts plus, in the second case,
 * ELECTRON_RUN_AS_NODE (each worker's is empty): no key, no `key_env` variable, no web token.
 */
import type { PluginHostLaunch } from "./host/plugins/runtime/launch/plugin-host-process.js";
import { spawnInUtilityProcess } from "./plugin-host-utility.js";

export type DesktopPluginHostLaunch = Pick<PluginHostLaunch, "execPath" | "env" | "spawn" | "confinement">;

export function desktopPluginHostLaunch(binary: {
  packaged: boolean;
  execPath: string;
}): DesktopPluginHostLaunch {
  if (binary.packaged) return { spawn: spawnInUtilityProcess, confinement: "worker" };
  return { execPath: binary.execPath, env: { ELECTRON_RUN_AS_NODE: "1" } };
}
