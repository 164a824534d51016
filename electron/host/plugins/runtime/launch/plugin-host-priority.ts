/**
 * The plugin host runs at the lowest OS priority (nice 19; in both apps: a Node process or
 * Electron's utility process), so its start-up — a worker booting per enabled plugin, ~60 ms of CPU each —
 * takes the cores only when the window and the chat turn leave them: 50 plugins starting no
 * longer hold up the first reply. Set on its main thread before any worker exists: a thread
 * inherits its creator's priority (Linux keeps one per thread). The lowest, not just below normal:
 * the scheduler weighs each thread, and 50 booting workers at nice 10 still outweigh the host's
 * one busy thread five times over (at 19, 50 × 15 < 1024).
 */
import { constants, setPriority } from "node:os";

export const PLUGIN_HOST_PRIORITY = constants.priority.PRIORITY_LOW;

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
