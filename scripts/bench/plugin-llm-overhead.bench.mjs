// llm_overhead through a plugin's worker (docs/contract.md §5.4, §12): a plugin command that calls
// `ctx.llm.complete` inside its worker (host → plugin host → worker → host → provider and back)
// vs the `openai` SDK called directly, same loopback server, interleaved after a warm-up.
import { createServer } from "node:http";
import OpenAI from "openai";
import { median, percentile, interleaved } from "./stats.mjs";
import { figure } from "./figure.mjs";
import { allLoaded, homeWithPlugins, startHost } from "./plugin-host-rig.mjs";

const CALLS = 200;
const WARMUP = 30;
const KEY = "sk-bench-0000000000000000000000000000";
const reply = JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "bench/model",
  choices: [{ index: 0, message: { role: "assistant", content: "pong" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
});

function startServer() {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(reply) });
      res.end(reply);
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

export async function run() {
  const server = await startServer();
  const baseURL = `http://127.0.0.1:${server.address().port}/v1`;
  const source = () => `export function register(ctx) {
    ctx.registerCommand({ name: "ask", handler: async () => (await ctx.llm.complete({ messages: [{ role: "user", content: "ping" }] })).text });
  }`;
  const { home, cleanup } = homeWithPlugins(1, source);
  const { host, vault } = await startHost(home);
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
    const { a: worker, b: sdk } = await interleaved(viaWorker, viaSdk, CALLS, WARMUP);
    const a = median(worker);
    const b = median(sdk);
    return [
      figure({
        name: "llm_overhead",
        value: a,
        unit: "ms",
        baseline: b,
        target: { on: "ratio", max: 1.05 },
        text: `ctx.llm.complete from a plugin's worker ${a.toFixed(3)} ms vs openai SDK direct ${b.toFixed(3)} ms (ratio ${(a / b).toFixed(3)}x; +${(a - b).toFixed(3)} ms added; median of ${CALLS} interleaved calls, loopback)`,
        extra: {
          p50: a,
          p99: percentile(worker, 99),
          baseline_p50: b,
          baseline_p99: percentile(sdk, 99),
        },
      }),
    ];
  } finally {
    await host.close();
    server.close();
    cleanup();
  }
}
