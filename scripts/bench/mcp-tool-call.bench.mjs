// mcp_tool_call (docs/contract.md §12, §13): an MCP tool call through the app's chat path
// (argument check against the inputSchema, approval `never`, events, result conversion) vs the
// same call from the MCP SDK client directly; the same server (server-everything's `echo` over
// stdio, one process each), calls interleaved (ABBA, so neither side always goes first); p50 and
// p99. "The same call" is the one §13.3 makes: with a progress token, a cancel signal of its own
// and the call's timeout — what any client that shows progress and honours Stop sends; the bare
// call (none of these) is reported beside it.
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
const CALLS = 3000;

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
      const cancel = new AbortController();
      const result = await direct.callTool({ name: "echo", arguments: { message: "ping" } }, undefined, {
        signal: cancel.signal,
        timeout: 300_000,
        onprogress: () => {},
      });
      if (result.content[0].text !== "Echo: ping") throw new Error("unexpected SDK result");
    };
    // The same call from the SDK client over the app's own connection: the same server process, so
    // what differs is the app's path alone (two server processes of one binary are scheduled
    // differently enough on a loaded machine to move the main ratio by ±30 %).
    const appClient = host.mcp.manager.get("everything").client;
    const viaSameServer = async () => {
      const cancel = new AbortController();
      const result = await appClient.callTool({ name: "echo", arguments: { message: "ping" } }, undefined, {
        signal: cancel.signal,
        timeout: 300_000,
        onprogress: () => {},
      });
      if (result.content[0].text !== "Echo: ping") throw new Error("unexpected SDK result");
    };
    const viaSdkBare = async () => {
      const result = await direct.callTool({ name: "echo", arguments: { message: "ping" } });
      if (result.content[0].text !== "Echo: ping") throw new Error("unexpected SDK result");
    };
    for (let i = 0; i < WARMUP; i++) {
      await viaApp();
      await viaSdk();
      await viaSdkBare();
      await viaSameServer();
    }
    const app = [];
    const sdk = [];
    const bare = [];
    const sameServer = [];
    const timed = async (f, into) => {
      const t0 = performance.now();
      await f();
      into.push(performance.now() - t0);
    };
    // Rotated each round, so none of the three always goes first.
    const sides = [
      [viaApp, app],
      [viaSdk, sdk],
      [viaSameServer, sameServer],
    ];
    for (let i = 0; i < CALLS; i++) {
      for (let j = 0; j < sides.length; j++) {
        const [f, into] = sides[(i + j) % sides.length];
        await timed(f, into);
      }
      if (i % 4 === 0) await timed(viaSdkBare, bare);
    }
    const p50 = percentile(app, 50);
    const floorP50 = percentile(sdk, 50);
    const line = (p) => `p${p} ${percentile(app, p).toFixed(3)} ms vs ${percentile(sdk, p).toFixed(3)} ms`;
    return [
      figure({
        name: "mcp_tool_call",
        value: p50,
        unit: "ms",
        floor: floorP50,
        target: { on: "ratio", max: 1.1 },
        text: `echo through the app's tool path vs the same call from the MCP SDK client directly: ${line(50)}; ${line(99)} (${CALLS} calls, ratio ${(p50 / floorP50).toFixed(3)}x; the same call on the app's own connection (same server process): p50 ${percentile(sameServer, 50).toFixed(3)} ms, ratio ${(p50 / percentile(sameServer, 50)).toFixed(3)}x; the SDK's bare call, no progress token or cancel signal: p50 ${percentile(bare, 50).toFixed(3)} ms)`,
        extra: {
          p50,
          p99: percentile(app, 99),
          floor_p50: floorP50,
          floor_p99: percentile(sdk, 99),
          bare_sdk_p50: percentile(bare, 50),
          same_server_p50: percentile(sameServer, 50),
          same_server_ratio: p50 / percentile(sameServer, 50),
        },
      }),
    ];
  } finally {
    await direct.close();
    await host.close();
    rmSync(home, { recursive: true, force: true });
  }
}
