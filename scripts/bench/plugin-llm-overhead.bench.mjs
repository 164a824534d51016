// llm_overhead through a plugin's worker (docs/contract.md §5.4, §12): a plugin command that calls
// `ctx.llm.complete` inside its worker (host → plugin host → worker → host → provider and back)
// vs the `openai` SDK called directly, same loopback server, interleaved after a warm-up. Also:
//  - `llm_overhead_in_worker`: the same call timed inside the worker, as the plugin sees it;
//  - `plugin_llm_time_to_answer`: `ctx.llm` does not stream (docs/contract.md §6.6), so there is
//    no first token through a plugin: the plugin's time to its whole answer (timed in the worker)
//    vs the SDK's first streamed token (the loopback server answers at once either way).
// Each also prints the floor of those hops here (hop-floor.mjs: a bare relay process and a bare
// worker passing the same frames, the model call made with the bare SDK): what no code of ours can
// go under with a plugin host process and a worker between the plugin and the host.
import OpenAI from "openai";
import { median, percentile, interleaved, interleavedSamples, timed } from "./stats.mjs";
import { figure } from "./figure.mjs";
import { startLoopbackProvider } from "./loopback-provider.mjs";
import { allLoaded, homeWithPlugins, startHost } from "./plugin-host-rig.mjs";
import { startHopFloor } from "./hop-floor.mjs";

const CALLS = 200;
const WARMUP = 30;
const KEY = "sk-bench-0000000000000000000000000000";
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
    const command = host.pluginRegistries.commands.get("ask");
    const direct = new OpenAI({ baseURL, apiKey: KEY, maxRetries: 0 });
    const messages = [{ role: "user", content: "ping" }];
    const viaWorker = () => command.handler("", { sessionId: "s", gatewaySessionKey: "g" });
    const viaSdk = () => direct.chat.completions.create({ model: "bench/model", messages });
    floor = await startHopFloor(async (params) => {
      const reply = await direct.chat.completions.create({ model: "bench/model", messages: params.messages });
      return { text: reply.choices[0].message.content, model: reply.model, usage: reply.usage };
    });
    const viaFloor = () => floor.invoke({ messages });
    const { a: worker, b: sdk } = await interleaved(viaWorker, viaSdk, CALLS, WARMUP);
    const a = median(worker);
    const b = median(sdk);
    const { a: floorTimes, b: floorSdk } = await interleaved(viaFloor, viaSdk, CALLS, WARMUP);
    const fr = median(floorTimes) / median(floorSdk);
    const inWorker = await timedInWorker(
      host.pluginRegistries.commands.get("ask-timed"),
      direct,
      messages,
      () => floor.invoke({ messages }),
    );
    return [
      figure({
        name: "llm_overhead",
        value: a,
        unit: "ms",
        floor: b,
        target: { on: "ratio", max: 1.05 },
        text: `ctx.llm.complete from a plugin's worker ${a.toFixed(3)} ms vs openai SDK direct ${b.toFixed(3)} ms (ratio ${(a / b).toFixed(3)}x; +${(a - b).toFixed(3)} ms added; median of ${CALLS} interleaved calls, loopback); floor of the hops here (bare relay process + bare worker): ${fr.toFixed(3)}x (+${(median(floorTimes) - median(floorSdk)).toFixed(3)} ms)`,
        extra: {
          p50: a,
          p99: percentile(worker, 99),
          floor_p50: b,
          floor_p99: percentile(sdk, 99),
          floor_ratio: fr,
          floor_added_ms: median(floorTimes) - median(floorSdk),
        },
      }),
      ...inWorker,
    ];
  } finally {
    floor?.close();
    await host.close();
    await server.close();
    cleanup();
  }
}

/**
 * `ctx.llm.complete` timed inside the worker (what the plugin waits) against the SDK's whole answer
 * and the SDK's first streamed token, interleaved.
 */
async function timedInWorker(command, direct, messages, floorInWorker) {
  const context = { sessionId: "s", gatewaySessionKey: "g" };
  const inner = async () => {
    const { ms, text } = JSON.parse(await command.handler("", context));
    if (text !== "pong") throw new Error(`ask-timed answered ${JSON.stringify(text)}`);
    return ms;
  };
  const sdkAnswer = () => direct.chat.completions.create({ model: "bench/model", messages });
  const sdkFirstToken = async () => {
    const t0 = performance.now();
    const stream = await direct.chat.completions.create({ model: "bench/model", messages, stream: true });
    let first = null;
    for await (const part of stream) {
      if (first === null && part.choices[0]?.delta?.content) first = performance.now() - t0;
    }
    if (first === null) throw new Error("the SDK stream had no token");
    return first;
  };
  // Two interleaved runs, so a streamed reply never sits between the plugin call and its baseline.
  const { a: plugin, b: answer } = await interleavedSamples(inner, timed(sdkAnswer), CALLS, WARMUP);
  const { a: pluginToAnswer, b: firstToken } = await interleavedSamples(inner, sdkFirstToken, CALLS, WARMUP);
  const { a: floorIn, b: floorAnswer } = await interleavedSamples(
    floorInWorker,
    timed(sdkAnswer),
    CALLS,
    WARMUP,
  );
  const { a: floorToAnswer, b: floorFirst } = await interleavedSamples(
    floorInWorker,
    sdkFirstToken,
    CALLS,
    WARMUP,
  );
  const floorRatio = median(floorIn) / median(floorAnswer);
  const floorAdded = median(floorIn) - median(floorAnswer);
  const floorTtaRatio = median(floorToAnswer) / median(floorFirst);
  const p = median(plugin);
  const a = median(answer);
  const q = median(pluginToAnswer);
  const f = median(firstToken);
  return [
    figure({
      name: "llm_overhead_in_worker",
      value: p,
      unit: "ms",
      floor: a,
      target: { on: "ratio", max: 1.05 },
      text: `ctx.llm.complete timed inside the plugin's worker ${p.toFixed(3)} ms vs openai SDK direct ${a.toFixed(3)} ms (ratio ${(p / a).toFixed(3)}x; +${(p - a).toFixed(3)} ms; median of ${CALLS}); floor of the hops here: ${floorRatio.toFixed(3)}x (+${floorAdded.toFixed(3)} ms)`,
      extra: {
        p50: p,
        p99: percentile(plugin, 99),
        floor_p50: a,
        floor_p99: percentile(answer, 99),
        floor_ratio: floorRatio,
        floor_added_ms: floorAdded,
      },
    }),
    figure({
      name: "plugin_llm_time_to_answer",
      value: q,
      unit: "ms",
      floor: f,
      target: { on: "ratio", max: 1.1 },
      text: `ctx.llm has no streaming (contract §6.6), so no first token through a plugin: its whole answer, timed in the worker, ${q.toFixed(3)} ms vs the SDK's first streamed token ${f.toFixed(3)} ms (ratio ${(q / f).toFixed(3)}x; median of ${CALLS}); floor of the hops here: ${floorTtaRatio.toFixed(3)}x`,
      extra: {
        p50: q,
        p99: percentile(pluginToAnswer, 99),
        floor_p50: f,
        floor_p99: percentile(firstToken, 99),
        floor_ratio: floorTtaRatio,
      },
    }),
  ];
}
