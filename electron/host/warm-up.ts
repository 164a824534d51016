/**
 * The host's warm-up: what the first chat turn would otherwise do on its way to the first token,
 * done once the host has had a moment after starting (the window has loaded by then, and a person
 * is still reading or typing). Each step is its own short task, so a call that arrives meanwhile
 * waits at most one step; a step that fails only costs the first turn its time, and is logged.
 */
import type { AgentLog } from "./logging/agent-log.js";

export type WarmUpStep = { name: string; run: () => unknown };

/** How long after the host starts the warm-up begins. */
export const WARM_UP_DELAY_MS = 1_000;

export function scheduleWarmUp(
  steps: readonly WarmUpStep[],
  log: Pick<AgentLog, "write">,
  delayMs = WARM_UP_DELAY_MS,
): { done: Promise<void>; cancel(): void } {
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
    timer = setTimeout(async () => {
      for (const step of steps) {
        if (cancelled) break;
        try {
          await step.run();
        } catch (err) {
          log.write("WARN", "warm_up_failed", { step: step.name, error: String(err) });
        }
        await new Promise((next) => setImmediate(next));
      }
      resolve();
    }, delayMs);
    timer.unref?.();
  });
  return {
    done,
    /** Stops before the next step (the host is closing); `done` settles then. */
    cancel() {
      cancelled = true;
      clearTimeout(timer);
      finish();
    },
  };
}
