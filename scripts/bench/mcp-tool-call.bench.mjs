// mcp_tool_call (docs/contract.md §12, §13): an MCP tool call through the app's chat path
// (argument check against the inputSchema, approval `never`, events, result conversion) vs the
// same call from the MCP SDK client directly; the same server (server-everything's `echo` over
// stdio, one process each), calls interleaved; p50 and p99.
import { createRequire } from "node:module";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { percentile } from "./stats.mjs";
import { figure } from "./figure.mjs";
import { startHost } from "./plugin-host-rig.mjs";

const WARMUP = 200;
const CALLS = 2000;

function everythingBin() {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve("@modelcontextprotocol/server-everything/package.json");
  return join(dirname(manifest), Object.values(require(manifest).bin)[0]);
}

export async function run() {
  const home = mkdtempSync(join(tmpdir(), "hermes-bench-mcp-"));
  const bin = everythingBin();
  writeFileSync(
    join(home, "config.yaml"),
    `mcp_servers:\n  everything: {command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(bin)}, stdio], approval: never}\n`,
  );
  const { host } = await startHost(home, { mcp: { pathValue: async () => process.env.PATH ?? "" } });
  const direct = new Client({ name: "bench", version: "1" });
  // The same server the same way: its stderr piped and read, as the app does for logs/mcp/<id>.log
  // (a piped stderr alone makes this server's calls slower than one whose stderr is discarded).
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, "stdio"],
    stderr: "pipe",
  });
  transport.stderr?.on("data", () => {});
  await direct.connect(transport);
  try {
    host.mcp.start();
    const deadline = Date.now() + 30_000;
    while (!host.mcp.manager.chatTools().some((t) => t.qualifiedName === "mcp__everything__echo")) {
      if (Date.now() > deadline) throw new Error("server-everything did not become ready in 30 s");
      await new Promise((r) => setTimeout(r, 20));
    }
    const signal = new AbortController().signal;
    const scope = { sessionId: "bench", gatewaySessionKey: "bench", signal };
    let n = 0;
    const viaApp = async () => {
      const result = await host.mcp.chatTools.run(
        {
          id: `b${n++}`,
          type: "function",
          function: { name: "mcp__everything__echo", arguments: '{"message":"ping"}' },
        },
        scope,
      );
      if (result.content !== "Echo: ping") throw new Error(`unexpected result: ${result.content}`);
    };
    const viaSdk = async () => {
      const result = await direct.callTool({ name: "echo", arguments: { message: "ping" } });
      if (result.content[0].text !== "Echo: ping") throw new Error("unexpected SDK result");
    };
    for (let i = 0; i < WARMUP; i++) {
      await viaApp();
      await viaSdk();
    }
    const app = [];
    const sdk = [];
    for (let i = 0; i < CALLS; i++) {
      let t0 = performance.now();
      await viaApp();
      app.push(performance.now() - t0);
      t0 = performance.now();
      await viaSdk();
      sdk.push(performance.now() - t0);
    }
    const p50 = percentile(app, 50);
    const baselineP50 = percentile(sdk, 50);
    const line = (p) => `p${p} ${percentile(app, p).toFixed(3)} ms vs ${percentile(sdk, p).toFixed(3)} ms`;
    return [
      figure({
        name: "mcp_tool_call",
        value: p50,
        unit: "ms",
        baseline: baselineP50,
        target: { on: "ratio", max: 1.1 },
        text: `echo through the app's tool path vs the MCP SDK client directly: ${line(50)}; ${line(99)} (${CALLS} calls, ratio ${(p50 / baselineP50).toFixed(3)}x)`,
        extra: {
          p50,
          p99: percentile(app, 99),
          baseline_p50: baselineP50,
          baseline_p99: percentile(sdk, 99),
        },
      }),
    ];
  } finally {
    await direct.close();
    await host.close();
    rmSync(home, { recursive: true, force: true });
  }
}
