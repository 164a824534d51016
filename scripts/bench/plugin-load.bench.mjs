// plugin_load (SPEC §12): 50 plugins discovered, started and registered (plugin host started, one
// worker each, every register run), from createHost to all loaded, vs its floor: 50 bare workers
// started the same way (bare-workers.mjs: a process spawned under the permission model making 50
// workers at once from a file), from the spawn to all up. ≤ 1.15x. Rounds alternate; medians.
// 1 plugin is reported beside it. Notes from earlier measurements of the bare worker: it is the
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
import { figure } from "./figure.mjs";
import { timeBareWorkers } from "./bare-workers.mjs";
import { median } from "./stats.mjs";
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

const ROUNDS = 3;

export async function run() {
  await timeLoad(1); // warms the file cache and the plugin host's code
  await timeBareWorkers(1);
  const one = [];
  const fifty = [];
  const floor = [];
  for (let i = 0; i < ROUNDS; i++) {
    one.push(await timeLoad(1));
    fifty.push(await timeLoad(50));
    floor.push(await timeBareWorkers(50));
  }
  const a = median(fifty);
  const b = median(floor);
  const single = median(one);
  const list = (xs) => xs.map((x) => x.toFixed(0)).join(" ");
  return [
    figure({
      name: "plugin_load",
      value: a,
      unit: "ms",
      floor: b,
      target: { on: "ratio", max: 1.15 },
      text:
        `50 plugins discovered, started and registered in ${a.toFixed(0)} ms vs 50 bare workers started the same way ` +
        `in ${b.toFixed(0)} ms (${(a / b).toFixed(2)}x; median of ${ROUNDS}: ${list(fifty)} vs ${list(floor)}); ` +
        `1 plugin: ${single.toFixed(0)} ms`,
      extra: { one_plugin_ms: single },
    }),
  ];
}
