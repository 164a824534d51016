// llm_overhead (SPEC §12): the host's half of `ctx.llm.complete` (trust gate, routing, audit line, usage
// mapping) called in process, without the worker hop (`llm_overhead_in_worker` has that), vs its floor: the
// `openai` SDK called directly on the product's own transport (sdk-floor.mjs), against the same
// loopback OpenAI-compatible server. Calls are interleaved after a warm-up so both sides see the
// same machine state; the SDK on undici's fetch is reported beside it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../../out/electron/host/clock.js";
import { SettingsStore } from "../../out/electron/host/config/settings-store.js";
import { ChatEngine } from "../../out/electron/host/llm/chat-engine.js";
import { createAgentLog } from "../../out/electron/host/logging/agent-log.js";
import { PluginLlmService } from "../../out/electron/host/plugins/llm/plugin-llm.js";
import { createRedactor } from "../../out/electron/host/secrets/redaction.js";
import { createVault } from "../../out/electron/host/secrets/vault.js";
import { median, percentile, rotatedSamples, timed } from "./stats.mjs";
import { floorSdk, stockSdk } from "./sdk-floor.mjs";
import { figure } from "./figure.mjs";
import { startLoopbackProvider } from "./loopback-provider.mjs";
// An in-memory keychain: the bench measures the request path, not the OS keychain.
import { memoryKeychain } from "./plugin-host-rig.mjs";

const CALLS = 200;
const WARMUP = 30;
const KEY = "sk-bench-0000000000000000000000000000";

export async function run() {
  const server = await startLoopbackProvider();
  const { baseURL } = server;
  const home = mkdtempSync(join(tmpdir(), "hermes-bench-llm-"));
  const settings = new SettingsStore({ home });
  try {
    settings.update((doc) => {
      doc.providers = { bench: { name: "Bench", base_url: baseURL } };
      doc.model = { provider: "bench", model: "bench/model" };
    });
    const vault = createVault(memoryKeychain(), {});
    await vault.setKey("bench", KEY);
    const redactor = createRedactor({ knownKeys: () => vault.knownKeys(), enabled: () => true });
    const log = createAgentLog(home, systemClock, (text) => redactor.redact(text, { force: true }));
    const llm = new PluginLlmService({ settings, engine: new ChatEngine(vault), log }).forPlugin("bench");
    const direct = floorSdk(baseURL, KEY);
    const stock = stockSdk(baseURL, KEY);

    const messages = [{ role: "user", content: "ping" }];
    const viaCtx = () => llm.complete({ messages });
    const viaSdk = (client) => () => client.chat.completions.create({ model: "bench/model", messages });
    const [ctxTimes, sdkTimes, stockTimes] = await rotatedSamples(
      [timed(viaCtx), timed(viaSdk(direct)), timed(viaSdk(stock))],
      CALLS,
      WARMUP,
    );
    const a = median(ctxTimes);
    const b = median(sdkTimes);
    return [
      figure({
        name: "llm_overhead",
        value: a,
        unit: "ms",
        floor: b,
        target: { on: "ratio", max: 1.05 },
        text: `ctx.llm.complete in the host ${a.toFixed(3)} ms vs the openai SDK direct on the product's transport ${b.toFixed(3)} ms (ratio ${(a / b).toFixed(3)}x; +${(a - b).toFixed(3)} ms added; median of ${CALLS} interleaved calls, loopback); the SDK on undici's fetch: ${median(stockTimes).toFixed(3)} ms`,
        extra: {
          p50: a,
          p99: percentile(ctxTimes, 99),
          floor_p50: b,
          floor_p99: percentile(sdkTimes, 99),
          undici_sdk_p50: median(stockTimes),
        },
      }),
    ];
  } finally {
    settings.close();
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
}
