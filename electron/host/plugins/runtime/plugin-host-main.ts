/**
 * The plugin host process (docs/contract.md §5.4): started by the host under Node's permission model, it runs
 * one worker per plugin and relays frames between the host and each worker. It holds no plugin
 * state of its own; when it dies the host starts another and every plugin registers again.
 */
import { Worker } from "node:worker_threads";
import type { Frame, FromPluginHost, ToPluginHost } from "./boundary.js";
import { decodeWire, encodeWire } from "./wire-codec.js";

const workerFile = new URL("./plugin-worker.js", import.meta.url);
const workers = new Map<string, Worker>();

/** Exit code of a plugin host started without the permission model. */
const EXIT_NO_PERMISSION_MODEL = 78;

// Fail closed: a launch that lost the permission model (a missing flag, a runtime that ignores
// it) must not run plugins with the app's own rights.
const permission = (process as { permission?: { has(scope: string, reference?: string): boolean } })
  .permission;
if (!permission || permission.has("child") || permission.has("fs.write", "/")) {
  process.stderr.write(
    "The plugin host runs only under Node's permission model (--permission / --experimental-permission); it was started without it, so no plugin is run.\n",
  );
  process.exit(EXIT_NO_PERMISSION_MODEL);
}

/**
 * Electron's utility process talks through `process.parentPort`; Node's fork through its IPC
 * channel, in the wire codec of plugin-host-process.ts's `forkPluginHost`.
 */
interface ParentPort {
  on(event: "message", listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}
const parentPort = (process as { parentPort?: ParentPort }).parentPort;

const send = (message: FromPluginHost): void => {
  if (parentPort) parentPort.postMessage(message);
  else if (process.connected) process.send?.(encodeWire(message));
};

function onHostMessage(listener: (message: ToPluginHost) => void): void {
  if (parentPort) parentPort.on("message", (event) => listener(event.data as ToPluginHost));
  else process.on("message", (message: ToPluginHost) => listener(decodeWire(message)));
}

function describeExit(code: number, error: (Error & { code?: string }) | null, heapMb: number): string {
  if (error?.code === "ERR_WORKER_OUT_OF_MEMORY") return `ran out of memory (heap cap ${heapMb} MB)`;
  if (error) return `crashed: ${error.message}`;
  return `exited with code ${code}`;
}

function start(pluginId: string, heapMb: number, init: unknown): void {
  workers
    .get(pluginId)
    ?.terminate()
    .catch(() => undefined);
  const worker = new Worker(workerFile, {
    workerData: init,
    env: {},
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
    stdout: false,
    stderr: false,
  });
  workers.set(pluginId, worker);
  let failure: (Error & { code?: string }) | null = null;
  worker.on("message", (frame: Frame) => send({ kind: "frame", pluginId, frame }));
  worker.on("error", (error) => {
    failure = error;
  });
  worker.on("exit", (code) => {
    if (workers.get(pluginId) !== worker) return; // replaced or stopped on purpose
    workers.delete(pluginId);
    send({ kind: "exited", pluginId, reason: describeExit(code, failure, heapMb) });
  });
}

onHostMessage((message) => {
  switch (message.kind) {
    case "start":
      start(message.pluginId, message.heapMb, message.init);
      return;
    case "stop": {
      const worker = workers.get(message.pluginId);
      workers.delete(message.pluginId);
      void worker?.terminate().catch(() => undefined);
      return;
    }
    case "frame":
      workers.get(message.pluginId)?.postMessage(message.frame);
      return;
  }
});

// Without the host there is nothing to serve (a utility process is ended by its parent instead).
process.on("disconnect", () => process.exit(0));
send({ kind: "ready" });
