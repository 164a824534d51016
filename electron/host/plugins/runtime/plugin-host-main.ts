/**
 * The plugin host process (docs/contract.md §5.4): it runs one worker per plugin and relays frames
 * between the host and each worker. It holds no plugin state of its own; when it dies the host
 * starts another and every plugin registers again. Plugins run under Node's permission model:
 * every plugin's worker carries its own permission flags, and this whole process is confined as
 * well (its command line) unless the runtime ignores that, as Electron's utility process does
 * (`confinement` in its launch arguments, permission-flags.ts).
 */
import path from "node:path";
import { Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Frame, FromPluginHost, ToPluginHost, WorkerBoot, WorkerInit } from "./boundary.js";
import { ringDoorbell } from "./channel/doorbell.js";
import { workerPermissionFlags } from "./launch/permission-flags.js";
import { parsePluginHostArgs, type PluginHostArgs } from "./launch/plugin-host-args.js";
import { lowerOwnPriority } from "./launch/plugin-host-priority.js";
import {
  CHANNEL_FD,
  CHANNEL_KEY_ENV,
  EXIT_CHANNEL_TAMPERED,
  parseChannelKey,
  SealedChannel,
} from "./channel/sealed-channel.js";
import { NOT_CONFINED } from "./in-worker/worker-confinement.js";

// CommonJS (scripts/build-bundles.mjs): cheaper to start than an ES module entry.
const workerFile = new URL("./plugin-worker.cjs", import.meta.url);
/** A plugin's worker and its doorbell (doorbell.ts: rung after each frame posted to it). */
interface Running {
  worker: Worker;
  bell: Int32Array;
}
const workers = new Map<string, Running>();
/** At most this many spares, whatever the host asks. */
const MAX_SPARES = 64;

/** Exit code of a plugin host started without the permission model. */
const EXIT_NO_PERMISSION_MODEL = 78;

let launch: PluginHostArgs;
try {
  launch = parsePluginHostArgs(process.argv.slice(2));
} catch (error) {
  process.stderr.write(
    `The plugin host was started with bad launch arguments: ${(error as Error).message}.\n`,
  );
  process.exit(1);
}

// Fail closed: a launch that lost the permission model (a missing flag, a runtime that ignores
// it) must not run plugins with the app's own rights.
const permission = (process as { permission?: { has(scope: string, reference?: string): boolean } })
  .permission;
if (
  launch.confinement === "process" &&
  (!permission || permission.has("child") || permission.has("fs.write", "/"))
) {
  process.stderr.write(
    "The plugin host runs only under Node's permission model (--permission / --experimental-permission); it was started without it, so no plugin is run.\n",
  );
  process.exit(EXIT_NO_PERMISSION_MODEL);
}

/**
 * Every worker gets its own permission flags, spelt for this runtime, whether or not this process
 * is confined: a worker's `execArgv` replaces the process's, and with `--allow-worker` a plugin
 * could start a worker of its own with `execArgv: []`, which would run outside the model (Node 20
 * and 24 alike). So a plugin's worker is confined by its own flags, and they never allow workers.
 *
 * A worker under the model may also read what lies under the working directory (Node 24 grants a
 * worker's missing entry point, the empty path, which resolves to it; Node 20 does not), so the
 * working directory is this process's own code folder, which every worker may read anyway.
 */
const workerExecArgv = workerPermissionFlags(launch.grants);
// Before any worker exists, so every worker thread inherits it.
lowerOwnPriority((line) => process.stderr.write(`${line}\n`));
try {
  process.chdir(path.dirname(fileURLToPath(workerFile)));
} catch (error) {
  process.stderr.write(
    `The plugin host could not move into its own folder (${(error as Error).message}), so no plugin is run.\n`,
  );
  process.exit(EXIT_NO_PERMISSION_MODEL);
}

/**
 * Electron's utility process talks through `process.parentPort`; a Node process through the sealed
 * pipe on its fd 3 (sealed-channel.ts), whose key its environment carries. The key leaves the
 * environment before any worker exists (workers get an empty one anyway).
 */
interface ParentPort {
  on(event: "message", listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}
const parentPort = (process as { parentPort?: ParentPort }).parentPort;
const channelKey = process.env[CHANNEL_KEY_ENV];
delete process.env[CHANNEL_KEY_ENV];

type Channel = {
  send(message: FromPluginHost): void;
  onMessage(listener: (message: ToPluginHost) => void): void;
};

function openChannel(): Channel {
  if (parentPort) {
    return {
      send: (message) => parentPort.postMessage(message),
      onMessage: (listener) => parentPort.on("message", (event) => listener(event.data as ToPluginHost)),
    };
  }
  let key: Buffer;
  try {
    key = parseChannelKey(channelKey);
  } catch (error) {
    process.stderr.write(
      `The plugin host was started without its channel to the app: ${(error as Error).message}.\n`,
    );
    process.exit(1);
  }
  const listeners: ((message: ToPluginHost) => void)[] = [];
  const sealed = new SealedChannel<FromPluginHost, ToPluginHost>(
    new Socket({ fd: CHANNEL_FD, readable: true, writable: true }),
    key,
    "to-host",
    {
      onMessage: (message) => listeners.forEach((listener) => listener(message)),
      onTampered: (error) => {
        process.stderr.write(`${error.message}; the plugin host stops and the app starts another.\n`);
        process.exit(EXIT_CHANNEL_TAMPERED);
      },
      // Without the host there is nothing to serve (a utility process is ended by its parent instead).
      onClose: () => process.exit(0),
    },
  );
  return { send: (message) => sealed.send(message), onMessage: (listener) => void listeners.push(listener) };
}

const channel = openChannel();
const send = (message: FromPluginHost): void => channel.send(message);

function describeExit(code: number, error: (Error & { code?: string }) | null, heapMb: number): string {
  if (error?.code === "ERR_WORKER_OUT_OF_MEMORY") return `ran out of memory (heap cap ${heapMb} MB)`;
  if (error?.code === NOT_CONFINED) return error.message;
  if (error) return `crashed: ${error.message}`;
  return `exited with code ${code}`;
}

/** A worker with no plugin yet; its own start-up (most of a plugin's load) is already done or under way. */
interface Spare {
  worker: Worker;
  heapMb: number;
  failure: (Error & { code?: string }) | null;
}
const spares: Spare[] = [];
/** Spares nobody claimed by then (a plugin that failed its manifest, a disabled one) are ended. */
const SPARE_IDLE_MS = 30_000;

function newWorker(heapMb: number): Worker {
  return new Worker(workerFile, {
    execArgv: workerExecArgv,
    env: {},
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
    stdout: false,
    stderr: false,
  });
}

function startSpare(heapMb: number): void {
  const spare: Spare = { worker: newWorker(heapMb), heapMb, failure: null };
  spare.worker.on("error", (error) => {
    spare.failure = error;
  });
  // A spare that died before it was claimed is simply dropped.
  spare.worker.once("exit", () => {
    const at = spares.indexOf(spare);
    if (at >= 0) spares.splice(at, 1);
  });
  spares.push(spare);
}

function claimSpare(heapMb: number): Spare | undefined {
  const at = spares.findIndex((spare) => spare.heapMb === heapMb);
  return at >= 0 ? spares.splice(at, 1)[0] : undefined;
}

function start(pluginId: string, heapMb: number, init: WorkerInit): void {
  workers
    .get(pluginId)
    ?.worker.terminate()
    .catch(() => undefined);
  const spare = claimSpare(heapMb);
  const worker = spare?.worker ?? newWorker(heapMb);
  const doorbell = new SharedArrayBuffer(4);
  const running: Running = { worker, bell: new Int32Array(doorbell) };
  workers.set(pluginId, running);
  let failure: (Error & { code?: string }) | null = spare?.failure ?? null;
  worker.on("message", (frame: Frame) => send({ kind: "frame", pluginId, frame }));
  worker.on("error", (error) => {
    failure = error;
  });
  const exited = (code: number) => {
    if (workers.get(pluginId) !== running) return; // replaced or stopped on purpose
    workers.delete(pluginId);
    const refused = failure?.code === NOT_CONFINED;
    send({
      kind: "exited",
      pluginId,
      reason: describeExit(code, failure, heapMb),
      ...(refused && { refused }),
    });
  };
  worker.on("exit", exited);
  // Queued until the worker listens: its first message says which plugin it runs.
  worker.postMessage({ kind: "init", init, doorbell } satisfies WorkerBoot);
}

channel.onMessage((message) => {
  switch (message.kind) {
    case "start":
      start(message.pluginId, message.heapMb, message.init);
      return;
    case "stop": {
      const running = workers.get(message.pluginId);
      workers.delete(message.pluginId);
      void running?.worker.terminate().catch(() => undefined);
      return;
    }
    case "frame": {
      const running = workers.get(message.pluginId);
      if (!running) return;
      running.worker.postMessage(message.frame);
      ringDoorbell(running.bell);
      return;
    }
  }
});

send({ kind: "ready" });

// Spares: the host starts this process before it knows its plugins and says how many it
// expects, so their workers boot while the host starts.
if (launch.spares) {
  for (let i = 0; i < Math.min(launch.spares.count, MAX_SPARES); i++) startSpare(launch.spares.heapMb);
  setTimeout(() => {
    for (const spare of spares.splice(0)) void spare.worker.terminate().catch(() => undefined);
  }, SPARE_IDLE_MS).unref();
}
