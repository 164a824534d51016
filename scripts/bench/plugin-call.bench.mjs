// plugin_call (SPEC §12): a slash command's round trip into its plugin's worker (host → plugin
// host → worker → back), p50 and p99, vs its floor: a plain function call through the bare worker
// hop (hop-floor.mjs: a bare relay process and a bare worker echoing the same frame), interleaved.
// p50 ≤ 1.15x. The plain function call alone is reported.
import { percentile, rotatedSamples, timed } from "./stats.mjs";
import { figure } from "./figure.mjs";
import { startHopFloor } from "./hop-floor.mjs";
import { allLoaded, homeWithPlugins, startHost } from "./plugin-host-rig.mjs";

const WARMUP = 200;
const CALLS = 2000;
const f3 = (x) => x.toFixed(3);

export async function run() {
  const source = () =>
    `export function register(ctx) { ctx.registerCommand({ name: "echo", handler: (raw) => raw }); }`;
  const { home, cleanup } = homeWithPlugins(1, source);
  const { host } = await startHost(home);
  const floor = await startHopFloor();
  try {
    await allLoaded(host, 1);
    const command = host.pluginRegistries.commands.get("echo");
    const context = { sessionId: "s", gatewaySessionKey: "g" };
    const plain = async (raw) => raw;
    const [worker, bare, direct] = await rotatedSamples(
      [
        timed(() => command.handler("ping", context)),
        timed(() => floor.echo("ping").then(plain)),
        timed(() => plain("ping", context)),
      ],
      CALLS,
      WARMUP,
    );
    const p50 = percentile(worker, 50);
    const floorP50 = percentile(bare, 50);
    const p99 = percentile(worker, 99);
    const floorP99 = percentile(bare, 99);
    return [
      figure({
        name: "plugin_call",
        value: p50,
        unit: "ms",
        floor: floorP50,
        target: { on: "ratio", max: 1.15 },
        text:
          `command round trip into a worker vs a plain function call through the bare worker hop: ` +
          `p50 ${f3(p50)} ms vs ${f3(floorP50)} ms (${(p50 / floorP50).toFixed(2)}x), ` +
          `p99 ${f3(p99)} ms vs ${f3(floorP99)} ms (${(p99 / floorP99).toFixed(2)}x) (${CALLS} calls); ` +
          `a plain function call alone: p50 ${f3(percentile(direct, 50))} ms`,
        extra: {
          p50,
          p99,
          floor_p50: floorP50,
          floor_p99: floorP99,
          p99_ratio: p99 / floorP99,
          added_p50_ms: p50 - floorP50,
          plain_call_p50: percentile(direct, 50),
        },
      }),
    ];
  } finally {
    floor.close();
    await host.close();
    cleanup();
  }
}
