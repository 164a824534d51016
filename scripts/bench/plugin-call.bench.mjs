// plugin_call (docs/contract.md §12): a slash command's round trip into its plugin's worker (host → plugin
// host → worker → back) vs the same handler called as a plain function in the host; p50 and p99.
import { percentile } from "./stats.mjs";
import { figure } from "./figure.mjs";
import { allLoaded, homeWithPlugins, startHost } from "./plugin-host-rig.mjs";

const WARMUP = 200;
const CALLS = 2000;

export async function run() {
  const source = () =>
    `export function register(ctx) { ctx.registerCommand({ name: "echo", handler: (raw) => raw }); }`;
  const { home, cleanup } = homeWithPlugins(1, source);
  const { host } = await startHost(home);
  try {
    await allLoaded(host, 1);
    const command = host.pluginRegistries.commands.get("echo");
    const context = { sessionId: "s", gatewaySessionKey: "g" };
    const plain = async (raw) => raw;
    const viaWorker = () => command.handler("ping", context);
    const viaFunction = () => plain("ping", context);
    for (let i = 0; i < WARMUP; i++) {
      await viaWorker();
      await viaFunction();
    }
    const worker = [];
    const direct = [];
    for (let i = 0; i < CALLS; i++) {
      let t0 = performance.now();
      await viaWorker();
      worker.push(performance.now() - t0);
      t0 = performance.now();
      await viaFunction();
      direct.push(performance.now() - t0);
    }
    const line = (p) => {
      const a = percentile(worker, p);
      const b = percentile(direct, p);
      return `p${p} ${a.toFixed(3)} ms vs ${b.toFixed(3)} ms (+${(a - b).toFixed(3)} ms, ratio ${(a / b).toFixed(1)}x)`;
    };
    const p50 = percentile(worker, 50);
    const baselineP50 = percentile(direct, 50);
    return [
      figure({
        name: "plugin_call",
        value: p50,
        unit: "ms",
        floor: baselineP50,
        target: { on: "added_ms", max: 0.2 },
        text: `command round trip into a worker vs a plain function call: ${line(50)}; ${line(99)} (${CALLS} calls)`,
        extra: {
          p50,
          p99: percentile(worker, 99),
          floor_p50: baselineP50,
          floor_p99: percentile(direct, 99),
          added_ms: p50 - baselineP50,
        },
      }),
    ];
  } finally {
    await host.close();
    cleanup();
  }
}
