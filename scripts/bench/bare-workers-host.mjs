// plugin_load's floor process (bare-workers.mjs starts it as the app starts its plugin host: a
// spawned Node under the permission model): starts argv[2] bare workers at once, as the plugin
// host's workers are made (env {}, a heap cap, stdout and stderr not piped), and prints "ready"
// once every one has said it is up. It runs at the plugin host's priority, the lowest
// (plugin-host-priority.ts), set before any worker exists as the plugin host does.
import { constants, setPriority } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

setPriority(0, constants.priority.PRIORITY_LOW);
const count = Number(process.argv[2]);
const file = join(dirname(fileURLToPath(import.meta.url)), "bare-worker.cjs");
const workers = Array.from(
  { length: count },
  () =>
    new Worker(file, {
      env: {},
      resourceLimits: { maxOldGenerationSizeMb: 256 },
      stdout: false,
      stderr: false,
    }),
);
await Promise.all(workers.map((w) => new Promise((resolve) => w.once("message", resolve))));
process.stdout.write("ready\n");
await Promise.all(workers.map((w) => w.terminate()));
