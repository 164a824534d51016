/**
 * Node's permission flags for the plugin host (docs/contract.md §5.4). Each plugin's worker gets
 * them in its own `execArgv` (`new Worker(file, { execArgv })`: that worker alone is confined), and
 * the plugin host process may get them on its command line as well (`node --permission …`: its
 * main thread, our code, is confined too). Electron's utility process ignores process-level flags
 * (README, "Plugins in the packaged app"), so there the workers' own flags are what confines.
 */

/** Where the model is switched on besides each worker: the whole plugin host process too, or not. */
export type Confinement = "process" | "worker";

/** What a plugin may touch: read the plugin host's code, the plugin folders and the SDK; write the data folders. */
export interface PluginGrants {
  read: readonly string[];
  write: readonly string[];
}

/**
 * The permission model's switch for the Node that runs it: `--permission` from 22.13 and 23.5
 * (where it became stable; later Nodes dropped the old alias), else `--experimental-permission`
 * (Node 20, 21, 22.0–22.12, 23.0–23.4). A worker's `execArgv` takes the same spelling as the
 * command line and refuses the other one (ERR_WORKER_INVALID_EXEC_ARGV).
 */
export function permissionFlag(nodeVersion: string = process.versions.node): string {
  const [major = 0, minor = 0] = nodeVersion.split(".").map(Number);
  const stable = major >= 24 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13);
  return stable ? "--permission" : "--experimental-permission";
}

const withSlash = (dir: string) => (dir.endsWith("/") ? dir : `${dir}/`);

function grantFlags(grants: PluginGrants): string[] {
  return [
    ...grants.read.map((dir) => `--allow-fs-read=${withSlash(dir)}`),
    ...grants.write.map((dir) => `--allow-fs-write=${withSlash(dir)}`),
  ];
}

/**
 * For the plugin host process: reads and writes as granted, and workers (it starts one per
 * plugin, each with the flags below). Child processes, native addons and WASI stay refused
 * because their `--allow-*` flags are never given.
 */
export function processPermissionFlags(grants: PluginGrants, nodeVersion?: string): string[] {
  return [permissionFlag(nodeVersion), ...grantFlags(grants), "--allow-worker", "--no-warnings"];
}

/**
 * For each plugin's worker: the same reads and writes, and no `--allow-worker`. A worker's
 * `execArgv` replaces the process's, so a worker the plugin started with `execArgv: []` would run
 * outside the model even inside a confined process (Node 20 and 24): a plugin must not start
 * workers at all.
 */
export function workerPermissionFlags(grants: PluginGrants, nodeVersion?: string): string[] {
  return [permissionFlag(nodeVersion), ...grantFlags(grants), "--no-warnings"];
}
