// The LLM figures through a plugin's worker (docs/contract.md §5.4, SPEC §12), on one loopback
// provider, every side interleaved after a warm-up (`llm_overhead`, the host's own half without the
// worker, is llm-overhead.bench.mjs):
//  - `llm_overhead_in_worker`: `ctx.llm.complete` timed inside the plugin's worker, as the plugin
//    sees it, vs its floor: the bare worker hop (hop-floor.mjs: a bare relay process and a bare
//    worker passing the same frames, the model call made by the SDK on the product's transport,
//    sdk-floor.mjs), timed inside the bare worker. ≤ 1.10x, and the p50 added < 0.1 ms.
//  - `plugin_llm_time_to_answer`: `ctx.llm` does not stream (docs/contract.md §6.6), so what a
//    plugin's command waits is the whole answer: a command calling `ctx.llm`, from the host, vs the
//    bare worker hop's whole answer from its parent, same request, same reply. ≤ 1.10x. (It was
//    compared with the SDK's FIRST streamed token, a different thing.) The SDK direct is reported.
import { median, percentile, rotatedSamples, timed } from "./stats.mjs";
import { figure } from "./figure.mjs";
import { startLoopbackProvider } from "./loopback-provider.mjs";
import { allLoaded, homeWithPlugins, startHost } from "./plugin-host-rig.mjs";
import { startHopFloor } from "./hop-floor.mjs";
import { floorSdk, stockSdk } from "./sdk-floor.mjs";

const CALLS = 200;
const WARMUP = 30;
const KEY = "sk-bench-0000000000000000000000000000";
const f3 = (x) => x.toFixed(3);

export async function run() {
  const server = await startLoopbackProvider();
  const { baseURL } = server;
  const source = () => `export function register(ctx) {
    const ask = () => ctx.llm.complete({ messages: [{ role: "user", content: "ping" }] });
    ctx.registerCommand({ name: "ask", handler: async () => (await ask()).text });
    ctx.registerCommand({ name: "ask-timed", handler: async () => {
      const t0 = performance.now();
      const { text } = await ask();
      return JSON.stringify({ ms: performance.now() - t0, text });
    } });
  }`;
  const { home, cleanup } = homeWithPlugins(1, source);
  const { host, vault } = await startHost(home);
  let floor = null;
  try {
    host.settings.update((doc) => {
      doc.providers = { bench: { name: "Bench", base_url: baseURL } };
      doc.model = { provider: "bench", model: "bench/model" };
    });
    await vault.setKey("bench", KEY);
    await allLoaded(host, 1);
    const context = { sessionId: "s", gatewaySessionKey: "g" };
    const ask = host.pluginRegistries.commands.get("ask");
    const askTimed = host.pluginRegistries.commands.get("ask-timed");
    const sdk = floorSdk(baseURL, KEY);
    const stock = stockSdk(baseURL, KEY);
    const messages = [{ role: "user", content: "ping" }];
    const answer = (client) => client.chat.completions.create({ model: "bench/model", messages });
    floor = await startHopFloor(async (params) => {
      const reply = await sdk.chat.completions.create({ model: "bench/model", messages: params.messages });
      return { text: reply.choices[0].message.content, model: reply.model, usage: reply.usage };
    });

    // From the host: the plugin's command vs the bare hop's, and the SDK direct (both transports).
    const [viaWorker, viaBareHop, direct, directStock] = await rotatedSamples(
      [
        timed(() => ask.handler("", context)),
        timed(() => floor.invoke({ messages })),
        timed(() => answer(sdk)),
        timed(() => answer(stock)),
      ],
      CALLS,
      WARMUP,
    );
    // Inside the worker: the plugin's `ctx.llm` vs the bare worker hop's, and the SDK's whole answer.
    const inWorker = async () => {
      const { ms, text } = JSON.parse(await askTimed.handler("", context));
      if (text !== "pong") throw new Error(`ask-timed answered ${JSON.stringify(text)}`);
      return ms;
    };
    const [plugin, bareHop, sdkAnswer] = await rotatedSamples(
      [inWorker, () => floor.invoke({ messages }), timed(() => answer(sdk))],
      CALLS,
      WARMUP,
    );

    const a = median(viaWorker);
    const b = median(viaBareHop);
    const d = median(direct);
    const p = median(plugin);
    const h = median(bareHop);
    const s = median(sdkAnswer);
    return [
      figure({
        name: "llm_overhead_in_worker",
        value: p,
        unit: "ms",
        floor: h,
        target: { on: "ratio", max: 1.1 },
        also: [{ on: "added_p50_ms", max: 0.1 }],
        text:
          `ctx.llm.complete timed inside the plugin's worker ${f3(p)} ms vs the bare worker hop (bare relay ` +
          `process + bare worker + the SDK) ${f3(h)} ms (${f3(p / h)}x; +${f3(p - h)} ms at p50; median of ` +
          `${CALLS}); the SDK direct: ${f3(s)} ms`,
        extra: {
          p50: p,
          p99: percentile(plugin, 99),
          floor_p50: h,
          floor_p99: percentile(bareHop, 99),
          added_p50_ms: p - h,
          sdk_direct_p50: s,
        },
      }),
      figure({
        name: "plugin_llm_time_to_answer",
        value: a,
        unit: "ms",
        floor: b,
        target: { on: "ratio", max: 1.1 },
        text:
          `a plugin command's whole answer from ctx.llm (no streaming, contract §6.6), from the host, ${f3(a)} ms ` +
          `vs the bare worker hop's whole answer ${f3(b)} ms (${f3(a / b)}x; +${f3(a - b)} ms; median of ${CALLS} ` +
          `interleaved calls); the SDK direct's whole answer: ${f3(d)} ms on the product's transport, ` +
          `${f3(median(directStock))} ms on undici's fetch`,
        extra: {
          p50: a,
          p99: percentile(viaWorker, 99),
          floor_p50: b,
          floor_p99: percentile(viaBareHop, 99),
          added_p50_ms: a - b,
          sdk_direct_p50: d,
          undici_sdk_p50: median(directStock),
        },
      }),
    ];
  } finally {
    floor?.close();
    await host.close();
    await server.close();
    cleanup();
  }
}
