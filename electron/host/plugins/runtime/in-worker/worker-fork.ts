/**
 * `ctx.forkSession` inside a plugin's worker (docs/contract.md §7.4): the call crosses to the host, which
 * answers the fork's id and first state; the handle's fields then follow the `forkUpdate` calls
 * the host sends as the fork runs. An update that overtakes the start's answer is kept for it.
 */
import type { ForkHandle, ForkOptions } from "../../../../../plugins/sdk/types.js";
import type { CtxCalls, ForkState, PluginCalls } from "../boundary.js";
import type { Endpoint } from "../endpoint.js";

interface Tracked {
  state: ForkState;
  waiters: Set<() => void>;
}

export interface WorkerForks {
  forkSession(token: string | null, prompt: string, options?: ForkOptions): Promise<ForkHandle | null>;
  /** The host's `forkUpdate`. */
  update(forkId: string, state: ForkState): void;
}

const isDone = (state: ForkState) => state.outcome !== "running";

export function createWorkerForks(endpoint: Endpoint<CtxCalls, PluginCalls>): WorkerForks {
  const tracked = new Map<string, Tracked>();
  const early = new Map<string, ForkState>();

  const apply = (entry: Tracked, state: ForkState) => {
    // A late "running" never undoes an end.
    if (isDone(entry.state) && !isDone(state)) return;
    entry.state = { ...state, actions: [...state.actions] };
    if (isDone(entry.state)) {
      for (const wake of entry.waiters) wake();
      entry.waiters.clear();
    }
  };

  const handleOf = (forkId: string, entry: Tracked): ForkHandle =>
    Object.freeze({
      get done() {
        return isDone(entry.state);
      },
      get cancelled() {
        return entry.state.cancelled;
      },
      get outcome() {
        return entry.state.outcome;
      },
      get result() {
        return entry.state.result;
      },
      get actions() {
        return Object.freeze([...entry.state.actions]);
      },
      wait(timeoutMs?: number): Promise<boolean> {
        if (isDone(entry.state)) return Promise.resolve(true);
        return new Promise<boolean>((resolve) => {
          let timer: ReturnType<typeof setTimeout> | undefined;
          const wake = () => {
            if (timer) clearTimeout(timer);
            resolve(true);
          };
          entry.waiters.add(wake);
          if (typeof timeoutMs === "number" && Number.isFinite(timeoutMs)) {
            timer = setTimeout(
              () => {
                entry.waiters.delete(wake);
                resolve(false);
              },
              Math.max(0, timeoutMs),
            );
          }
        });
      },
      cancel(): void {
        if (isDone(entry.state)) return;
        void endpoint.call("forkSession.cancel", { forkId }).catch(() => undefined);
      },
    });

  return {
    async forkSession(token, prompt, options) {
      let plain: unknown;
      try {
        plain = options === undefined ? undefined : structuredClone(options);
      } catch {
        throw new TypeError(
          "forkSession options must be plain data {tools, maxIterations, inputBudget, task, timeout}.",
        );
      }
      const start = await endpoint.call("forkSession", { token, prompt, options: plain });
      if (!start) return null;
      const entry: Tracked = { state: start.state, waiters: new Set() };
      const overtaken = early.get(start.forkId);
      early.delete(start.forkId);
      if (overtaken) apply(entry, overtaken);
      if (!isDone(entry.state)) tracked.set(start.forkId, entry);
      const handle = handleOf(start.forkId, entry);
      return handle;
    },
    update(forkId, state) {
      const entry = tracked.get(forkId);
      if (!entry) {
        early.set(forkId, state);
        return;
      }
      apply(entry, state);
      if (isDone(entry.state)) tracked.delete(forkId);
    },
  };
}
