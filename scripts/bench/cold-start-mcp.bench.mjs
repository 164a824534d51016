// cold_start_mcp (docs/contract.md §13.2: servers start after the window is interactive): the
// cold_start measure — spawn → chat input usable with the session list loaded — with 5 MCP servers
// configured (server-everything over stdio, each a Node process to start) vs the same start with
// none, rounds alternating so the machine's load hits both. Target ≤ 1.05x.
import { createRequire } from "node:module";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { chromium } from "playwright-core";
import { findChromium } from "../find-chromium.mjs";
import { median, ms } from "./stats.mjs";
import { figure } from "./figure.mjs";
import { startLoopbackProvider } from "./loopback-provider.mjs";
import { seedSessions } from "./seed-sessions.mjs";
import { appLaunch, copyHome, timeStart, writeConfig } from "./window-start.mjs";
import chromiumArgs from "../chromium-args.json" with { type: "json" };

const ROUNDS = 5;
const SERVERS = 5;
const SESSIONS = 1000;
const MESSAGES = 20;

function everythingBin() {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve("@modelcontextprotocol/server-everything/package.json");
  return join(dirname(manifest), Object.values(require(manifest).bin)[0]);
}

export async function run() {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("no Chromium found (apt-get install chromium)");
  const provider = await startLoopbackProvider();
  const bare = mkdtempSync(join(tmpdir(), "hermes-bench-cold-mcp-"));
  const withServers = mkdtempSync(join(tmpdir(), "hermes-bench-cold-mcp-"));
  const browser = await chromium.launch({ executablePath, args: chromiumArgs });
  const none = [];
  const five = [];
  try {
    writeConfig(bare, provider.baseURL);
    const store = await seedSessions(bare, { sessions: SESSIONS, messages: MESSAGES });
    if (store.messages !== SESSIONS * MESSAGES) throw new Error(`seeded ${store.messages} messages`);
    cpSync(bare, withServers, { recursive: true });
    const bin = JSON.stringify(everythingBin());
    const servers = Array.from(
      { length: SERVERS },
      (_, i) =>
        `  s${i}: {command: ${JSON.stringify(process.execPath)}, args: [${bin}, stdio], approval: never}`,
    ).join("\n");
    writeConfig(withServers, provider.baseURL, `mcp_servers:\n${servers}\n`);
    for (let i = 0; i < ROUNDS; i++) {
      // Alternating which goes first, so neither always follows the other's leftovers.
      const order = i % 2 === 0 ? [withServers, bare] : [bare, withServers];
      for (const seeded of order) {
        const { home, cleanup } = copyHome(seeded);
        try {
          const { usable } = await timeStart(browser, appLaunch(home));
          (seeded === bare ? none : five).push(usable);
        } finally {
          cleanup();
        }
      }
    }
  } finally {
    await browser.close();
    await provider.close();
    rmSync(bare, { recursive: true, force: true });
    rmSync(withServers, { recursive: true, force: true });
  }
  const a = median(five);
  const b = median(none);
  return [
    figure({
      name: "cold_start_mcp",
      value: a,
      unit: "ms",
      floor: b,
      target: { on: "ratio", max: 1.05 },
      text:
        `cold start (spawn → chat input usable, ${SESSIONS} chats) with ${SERVERS} MCP servers configured ${ms(a)} ` +
        `vs none ${ms(b)} (${(a / b).toFixed(2)}x; median of ${ROUNDS}; ` +
        `with ${five.map((x) => x.toFixed(0)).join(" ")}, without ${none.map((x) => x.toFixed(0)).join(" ")} ms)`,
      extra: { servers: SERVERS, sessions: SESSIONS },
    }),
  ];
}
