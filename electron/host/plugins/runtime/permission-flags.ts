/**
 * Node's permission flags for the plugin host (docs/contract.md §5.4), in the two places they can
 * be given: on the plugin host process (`node --permission …`: the process and every worker in it
 * are confined) or on each plugin's worker (`new Worker(file, { execArgv })`: that worker alone is
 * confined; the plugin host's main thread, our code, is not). The second is how the packaged app
 * confines plugins, because Electron's utility process does not apply process-level permission
 * flags (README, "Plugins in the packaged app").
 */

/** Where plugins run confined: the whole plugin host process, or each plugin's worker. */
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
 * plugin; they stay under the process's model whatever their own options say). Child processes,
 * native addons and WASI stay refused because their `--allow-*` flags are never given.
 */
export function processPermissionFlags(grants: PluginGrants, nodeVersion?: string): string[] {
  return [permissionFlag(nodeVersion), ...grantFlags(grants), "--allow-worker", "--no-warnings"];
}

/**
 * For one plugin's worker when the process itself is not confined: the same reads and writes,
 * and no `--allow-worker`: a worker the plugin started could name its own `execArgv` (none) and
 * run unconfined, so a confined worker must not start workers at all.
 */
export function workerPermissionFlags(grants: PluginGrants, nodeVersion?: string): string[] {
  return [permissionFlag(nodeVersion), ...grantFlags(grants), "--no-warnings"];
}
