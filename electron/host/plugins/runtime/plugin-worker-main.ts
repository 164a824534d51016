/**
 * The entry of one plugin's worker inside the plugin host (docs/contract.md §5.4). It learns which
 * plugin it runs from its first message (`init`: it may have been started as a spare before the
 * plugin was known), holds the plugin's `ctx`, imports the plugin's module when the host says
 * `register`, and runs the handlers the host invokes. What it needs of the worker's globals is taken before any plugin code runs, so a plugin
 * that replaces `JSON`, `Array.prototype.map` or `fetch` only changes its own worker.
 */
import type { getHeapStatistics as GetHeapStatistics } from "node:v8";
import { parentPort } from "node:worker_threads";
import type { RegisterFn } from "../../../../plugins/sdk/types.js";
import type { CtxCalls, Frame, PluginCalls, WorkerBoot } from "./boundary.js";
import { DoorbellReceiver } from "./channel/doorbell.js";
import { Endpoint } from "./endpoint.js";
import { loadPluginModule } from "./in-worker/plugin-module.js";
import { assertWorkerConfined } from "./in-worker/worker-confinement.js";
import { createWorkerCtx, type WorkerCtx } from "./in-worker/worker-ctx.js";

class PluginLoadError extends Error {
  override readonly name = "PluginLoadError";
}

const port = parentPort;
if (!port) throw new Error("plugin-worker-main runs only as a worker");
// Before anything else: no permission model, no plugin (the plugin host reports the refusal).
assertWorkerConfined({
  permission: (process as { permission?: { has(scope: string, reference?: string): boolean } }).permission,
  cwd: process.cwd(),
  ownDir: __dirname,
});
const post = port.postMessage.bind(port);
const MB = 1024 * 1024;

// A plugin may end its own worker (process.exit), never signal a process: not the host (its
// parent), not the plugin host it shares with every other plugin.
const refuseSignals = (): never => {
  throw new Error("Plugins cannot send signals to processes.");
};
for (const name of ["kill", "_kill"] as const) {
  Object.defineProperty(process, name, { value: refuseSignals, writable: false, configurable: false });
}

/** `node:v8` is loaded at the first heartbeat, after the plugin loaded: a worker's start is its plugin's load. */
let heapStatistics: (() => { used_heap_size: number }) | undefined;
const heapUsedBytes = (): number => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- this entry runs only as CommonJS (plugin-worker.cjs)
  heapStatistics ??= (require("node:v8") as { getHeapStatistics: typeof GetHeapStatistics })
    .getHeapStatistics;
  return heapStatistics().used_heap_size;
};

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function pickRegister(mod: Record<string, unknown>, main: string): RegisterFn {
  if (typeof mod.register === "function") return mod.register as RegisterFn;
  const fallback = mod.default;
  if (typeof fallback === "function") return fallback as RegisterFn;
  const nested = (fallback as { register?: unknown } | null | undefined)?.register;
  if (typeof nested === "function") return nested as RegisterFn;
  throw new PluginLoadError(`${main} exports no register function; export "register" (named or default).`);
}

const endpoint: Endpoint<CtxCalls, PluginCalls> = new Endpoint<CtxCalls, PluginCalls>(
  (frame) => post(frame),
  {
    register: async ({ file, main }) => {
      let mod: Record<string, unknown>;
      try {
        mod = await loadPluginModule(file);
      } catch (error) {
        throw new PluginLoadError(`Loading ${main} failed: ${describe(error)}`);
      }
      const register = pickRegister(mod, main);
      try {
        await register(worker.ctx);
        await worker.writesSettled();
      } catch (error) {
        throw new PluginLoadError(
          `register() failed: ${describe(error)}. Fix the plugin's register(), or disable the plugin in Settings → Plugins.`,
        );
      }
      return null;
    },
    invoke: async ({ handlerId, args }) => {
      const handler = worker.handlers.get(handlerId);
      if (!handler) throw new Error(`No handler ${handlerId} in this plugin.`);
      return await handler(...args);
    },
    forkUpdate: ({ forkId, state }) => {
      worker.forks.update(forkId, state);
      return null;
    },
    ping: () => ({ heapUsedMb: heapUsedBytes() / MB }),
  },
  { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout) },
);
let worker!: WorkerCtx;
let booted = false;

/**
 * Frames that arrived while the plugin's code waited in a synchronous call (doorbell.ts): handled
 * once it yields, and always before any frame that arrives after them. A mirror update is only
 * data, so it applies at once: `hasCapability` never reads a stale grant after a wait.
 */
const held: Frame[] = [];
const hold = (frame: Frame): void => {
  if (frame.kind === "mirror") return void Object.assign(worker.mirror, frame.mirror);
  held.push(frame);
  if (held.length === 1) queueMicrotask(handleHeld);
};
const handleHeld = (): void => {
  for (let frame = held.shift(); frame; frame = held.shift()) handle(frame);
};
const handle = (frame: Frame): void => {
  if (frame.kind === "mirror") Object.assign(worker.mirror, frame.mirror);
  else endpoint.receive(frame);
};

port.on("message", (message: Frame | WorkerBoot) => {
  if (message.kind === "init") {
    if (booted) return;
    booted = true;
    const doorbell = new DoorbellReceiver(port, new Int32Array(message.doorbell), hold);
    worker = createWorkerCtx(message.init, endpoint, (id, timeoutMs) => doorbell.awaitAnswer(id, timeoutMs));
    void endpoint.call("ready", {}).catch(() => undefined);
    return;
  }
  if (!booted) return;
  handleHeld();
  handle(message);
});
