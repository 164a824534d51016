/**
 * A plugin's worker checks, before any plugin code can run, that Node's permission model confines
 * it as its own flags say (docs/contract.md §5.4; permission-flags.ts), and refuses to run
 * otherwise: a runtime that ignored the flags fails closed instead of running a plugin with the
 * app's rights. The plugin then shows as failed with the reason, and is not restarted.
 */
import path from "node:path";

/** The `code` of the error a refusing worker throws; the plugin host reports it as `refused`. */
export const NOT_CONFINED = "ERR_PLUGIN_NOT_CONFINED";

interface PermissionApi {
  has(scope: string, reference?: string): boolean;
}

export interface WorkerState {
  permission: PermissionApi | undefined;
  cwd: string;
  /** The folder of the worker's own code, which it may read anyway. */
  ownDir: string;
}

const inside = (dir: string, parent: string) => {
  const relative = path.relative(parent, dir);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
};

/** Why this worker must not run a plugin, or null when it is confined as it should be. */
export function confinementProblem(state: WorkerState): string | null {
  const { permission } = state;
  if (!permission) {
    return "Node's permission model is not in force in its worker (this runtime ignored the permission flags)";
  }
  if (permission.has("child")) return "its worker may start child processes";
  if (permission.has("fs.write", "/")) return "its worker may write outside the plugins' data folders";
  // A worker it started could pass its own execArgv (none) and run outside the model.
  if (permission.has("worker")) return "its worker may start workers of its own";
  // Node 24 lets a confined worker read under the working directory; it must be our own folder.
  if (
    permission.has("fs.read", path.join(state.cwd, "hermes-confinement-probe")) &&
    !inside(state.cwd, state.ownDir)
  ) {
    return `its worker may read everything under the working directory ${state.cwd}`;
  }
  return null;
}

/** Throws the refusal (code NOT_CONFINED) when the worker is not confined. */
export function assertWorkerConfined(state: WorkerState): void {
  const problem = confinementProblem(state);
  if (!problem) return;
  const error = new Error(
    `Not started: ${problem}, and a plugin runs only under Node's permission model (README, "Plugins in the packaged app").`,
  ) as Error & { code: string };
  error.code = NOT_CONFINED;
  throw error;
}
