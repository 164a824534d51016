// plugin_load (docs/contract.md §12): 50 plugins discovered and started (plugin host started, one worker each,
// every register run) against the same for 1 plugin, from createHost to all loaded. For scale it
// also prints Node's own floor on this machine: 50 bare workers (an empty script, the same heap
// cap) started side by side in this process, no plugin host, no plugin. The bare worker is the
// cheapest configuration found: an eval'd CommonJS line. Its cost is the worker itself (a V8
// isolate from the snapshot, Node's bootstrap, fresh pages), ~60 ms of CPU each here; none of
// a file or ES module entry, SHARE_ENV, unpiped stdio, no resourceLimits, a 1 MB stack,
// trackUnmanagedFds off, the permission model, or starting them 2, 3 or 4 at a time changed it
// beyond the noise. 50 of them on 2 cores are ~1.5 s, above the 1 s target.
// Measured per thread (/proc/thread-self/stat, 40 workers, Node 20.20): a worker's own thread
// spends ~43 ms in Node's bootstrap (Node 20 bootstraps a worker in JS, not from the snapshot:
// builtins compiled from their code cache, two young-generation scavenges), the rest of the ~60 ms
// is the process's (the Worker's set-up, V8's helper threads, page faults). On top, our worker
// spends ~12 ms (its entry ~2.5, init and the ready call ~6, register ~3; register was ~7.5 with
// `import()`, which starts the ES module loader in every worker: plugin-module.ts). Neither
// maxYoungGenerationSizeMb, codeRangeSizeMb, --single-threaded-gc, --v8-pool-size, --max-lazy,
// --lite-mode nor malloc arena limits moved the floor. --min-semi-space-size=4 skips the two
// scavenges (~3 ms a worker), but any V8 flag changes V8's flag hash, so Node rejects the code
// cache of all its builtins (NODE_DEBUG_NATIVE=CODE_CACHE) and the plugin host's own start cost
// ~50 % more: end to end no gain, not used.
import { Worker } from "node:worker_threads";
import { figure } from "./figure.mjs";
import { allLoaded, homeWithPlugins, startHost } from "./plugin-host-rig.mjs";

async function timeLoad(count) {
  const source = (id) =>
    `export function register(ctx) { ctx.registerCommand({ name: "${id}-cmd", handler: () => "${id}" }); }`;
  const { home, cleanup } = homeWithPlugins(count, source);
  const t0 = performance.now();
  const { host } = await startHost(home);
  try {
    await allLoaded(host, count);
    return performance.now() - t0;
  } finally {
    await host.close();
    cleanup();
  }
}

async function timeBareWorkers(count) {
  const t0 = performance.now();
  const workers = Array.from(
    { length: count },
    () =>
      new Worker('require("node:worker_threads").parentPort.postMessage(0)', {
        eval: true,
        env: {},
        resourceLimits: { maxOldGenerationSizeMb: 256 },
      }),
  );
  await Promise.all(workers.map((w) => new Promise((resolve) => w.once("message", resolve))));
  const elapsed = performance.now() - t0;
  await Promise.all(workers.map((w) => w.terminate()));
  return elapsed;
}

export async function run() {
  await timeLoad(1); // warms the file cache and the plugin host's code
  const one = await timeLoad(1);
  const fifty = await timeLoad(50);
  const floor = await timeBareWorkers(50);
  return [
    figure({
      name: "plugin_load",
      value: fifty,
      unit: "ms",
      floor: one,
      target: { on: "value", max: 1000 },
      text: `50 plugins discovered and started in ${fifty.toFixed(0)} ms vs 1 plugin in ${one.toFixed(0)} ms (ratio ${(fifty / one).toFixed(1)}x; ${((fifty - one) / 49).toFixed(1)} ms per extra plugin); Node's floor here: 50 bare workers (eval'd CommonJS, env {}, 256 MB heap cap, all at once) in ${floor.toFixed(0)} ms`,
      extra: { bare_workers_ms: floor },
    }),
  ];
}
