/**
 * The plugin host runs below normal OS priority (in both apps: a Node process or Electron's
 * utility process), so its start-up — a worker booting per enabled plugin, ~60 ms of CPU each —
 * takes the cores only when the window and the chat turn leave them: 50 plugins starting no
 * longer hold up the first reply. Set on its main thread before any worker exists: a thread
 * inherits its creator's priority (Linux keeps one per thread).
 */
import { constants, setPriority } from "node:os";

export const PLUGIN_HOST_PRIORITY = constants.priority.PRIORITY_BELOW_NORMAL;

/** Lowers this process's priority; says why not (never fatal: plugins run at normal priority then). */
export function lowerOwnPriority(warn: (line: string) => void): void {
  try {
    setPriority(0, PLUGIN_HOST_PRIORITY);
  } catch (error) {
    warn(
      `The plugin host could not lower its priority (${(error as Error).message}); it runs at normal priority.`,
    );
  }
}
