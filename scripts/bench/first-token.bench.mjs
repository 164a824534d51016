// first_token_overhead (issue 3): time to the first streamed token through the host
// (session.send → first session.delta event) against its floor, the openai SDK called directly on
// the product's own transport (sdk-floor.mjs), both on the
// same loopback OpenAI-format server that answers at once, on its own thread as a real provider is
// (loopback-provider.mjs). Runs against the built tree.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median, ms, percentile } from "./stats.mjs";
import { figure } from "./figure.mjs";
import { startLoopbackProvider } from "./loopback-provider.mjs";
import { floorSdk } from "./sdk-floor.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const load = (path) => import(pathToFileURL(join(root, "out", "electron", "host", path)).href);
const warmup = 20;
const rounds = 150;
const KEY = "sk-test-0000000000000000000000000000bench";

export async function run() {
  const { createHost } = await load("create-host.js");
  const { createVault } = await load("secrets/vault.js");
  const server = await startLoopbackProvider();
  const { baseURL } = server;
  const home = mkdtempSync(join(tmpdir(), "hermes-bench-first-token-"));
  const memoryKeychain = {
    get: async () => null,
    set: async () => undefined,
    delete: async () => false,
    list: async () => [],
  };
  const host = createHost({
    home,
    vault: createVault(memoryKeychain, { BENCH_KEY: KEY }),
    mode: "web",
    version: "bench",
    bundledPluginsDir: null,
  });
  host.settings.update((doc) => {
    doc.providers = { bench: { name: "Bench", base_url: baseURL, key_env: "BENCH_KEY" } };
    doc.model = { provider: "bench", model: "bench/model" };
  });
  const sdk = floorSdk(baseURL, KEY);
  let waiting = null;
  host.events.subscribe((frame) => {
    const { type, payload } = frame.params;
    if (type === "session.delta" && waiting && payload.turnId === waiting.turnId)
      waiting.resolve(performance.now());
  });

  async function throughHost() {
    // A titled session, so no title request runs alongside the next measurement.
    const { sessionId } = host.sessions.create({ title: "Bench" }, "bench");
    let resolve;
    const firstDelta = new Promise((r) => (resolve = r));
    const t0 = performance.now();
    waiting = { turnId: null, resolve };
    const { turnId } = host.sessions.send(sessionId, "Say hello", undefined, "bench");
    waiting.turnId = turnId;
    const t1 = await firstDelta;
    await host.sessions.idle(sessionId);
    return t1 - t0;
  }

  async function direct() {
    const t0 = performance.now();
    const stream = await sdk.chat.completions.create({
      model: "bench/model",
      messages: [{ role: "user", content: "Say hello" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let first = 0;
    for await (const part of stream) {
      if (!first && part.choices[0]?.delta?.content) first = performance.now();
    }
    return first - t0;
  }

  const hostTimes = [];
  const sdkTimes = [];
  try {
    for (let i = 0; i < warmup + rounds; i++) {
      // Interleaved, so drift (GC, CPU frequency) hits both sides alike.
      const a = await direct();
      const b = await throughHost();
      if (i >= warmup) {
        sdkTimes.push(a);
        hostTimes.push(b);
      }
    }
  } finally {
    await host.close();
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
  const h = median(hostTimes);
  const s = median(sdkTimes);
  return [
    figure({
      name: "first_token_overhead",
      value: h,
      unit: "ms",
      floor: s,
      target: { on: "ratio", max: 1.1 },
      text: `host ${ms(h)} vs the openai SDK on the product's transport ${ms(s)} (median of ${rounds}), ratio ${(h / s).toFixed(2)}x`,
      extra: {
        p50: h,
        p99: percentile(hostTimes, 99),
        floor_p50: s,
        floor_p99: percentile(sdkTimes, 99),
      },
    }),
  ];
}
