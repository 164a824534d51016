/**
 * How the desktop starts the plugin host (docs/contract.md §5.4), by the binary it runs in:
 *
 * - A packaged app has the RunAsNode fuse off (build/electron-builder.yml), so Electron's binary
 *   ignores ELECTRON_RUN_AS_NODE and `child_process.fork` cannot work: the plugin host runs in an
 *   Electron utility process (`utilityProcess.fork`) with the permission flags in `execArgv` and
 *   the allowlisted environment as `env`. Electron's utility process does not apply Node's
 *   permission flags today (they reach `process.execArgv` only; see the README, "Plugins in the
 *   packaged app"), so the plugin host's own check refuses to run there: plugins stay off, never
 *   unconfined, and the Plugins screen says why. It starts working the day Electron honours them.
 * - `npm start` runs the stock Electron binary (no fuses flipped): it is started as plain Node with
 *   ELECTRON_RUN_AS_NODE, where Node parses the permission flags and plugins run confined.
 *
 * Either way the environment is the allowlist of plugin-host-process.ts plus, in the second case,
 * ELECTRON_RUN_AS_NODE: no key, no `key_env` variable, no web token.
 */
import type { PluginHostLaunch } from "./host/plugins/runtime/plugin-host-process.js";
import { spawnInUtilityProcess } from "./plugin-host-utility.js";

export type DesktopPluginHostLaunch = Pick<PluginHostLaunch, "execPath" | "env" | "spawn">;

export function desktopPluginHostLaunch(binary: {
  packaged: boolean;
  execPath: string;
}): DesktopPluginHostLaunch {
  if (binary.packaged) return { spawn: spawnInUtilityProcess };
  return { execPath: binary.execPath, env: { ELECTRON_RUN_AS_NODE: "1" } };
}
