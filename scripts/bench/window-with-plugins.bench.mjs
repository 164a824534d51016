// window_with_plugins (SPEC §12): from spawning the web host to the window interactive (the chat
// input usable, the session list loaded) and a first message answered, with 50 plugins installed
// and enabled, vs its floor: the same start with no plugin installed. Plugin start-up must hold
// neither the window nor the first turn. Rounds alternate so the machine's load hits both alike.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { findChromium } from "../find-chromium.mjs";
import { median, ms } from "./stats.mjs";
import { figure } from "./figure.mjs";
import { startLoopbackProvider } from "./loopback-provider.mjs";
import { homeWithPlugins } from "./plugin-host-rig.mjs";
import { seedSessions } from "./seed-sessions.mjs";
import { appLaunch, copyHome, timeStart, writeConfig } from "./window-start.mjs";
import chromiumArgs from "../chromium-args.json" with { type: "json" };

const ROUNDS = 3;
const PLUGINS = 50;

export async function run() {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("no Chromium found (apt-get install chromium)");
  const provider = await startLoopbackProvider();
  const source = (id) =>
    `export function register(ctx) { ctx.registerCommand({ name: "${id}-cmd", handler: () => "${id}" }); }`;
  const withPlugins = homeWithPlugins(PLUGINS, source);
  const without = mkdtempSync(join(tmpdir(), "hermes-bench-noplugins-"));
  const ids = Array.from({ length: PLUGINS }, (_, i) => `p${i}`);
  writeConfig(withPlugins.home, provider.baseURL, `plugins:\n  enabled: [${ids.join(", ")}]\n`);
  writeConfig(without, provider.baseURL);
  // A few chats, so "the session list loaded" has rows to show.
  for (const home of [withPlugins.home, without]) await seedSessions(home, { sessions: 20, messages: 4 });
  const browser = await chromium.launch({ executablePath, args: chromiumArgs });
  const app = [];
  const floor = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      for (const [home, into] of [
        [withPlugins.home, app],
        [without, floor],
      ]) {
        const copy = copyHome(home);
        try {
          into.push(await timeStart(browser, appLaunch(copy.home), { send: true }));
        } finally {
          copy.cleanup();
        }
      }
    }
  } finally {
    await browser.close();
    await provider.close();
    withPlugins.cleanup();
    rmSync(without, { recursive: true, force: true });
  }
  const a = median(app.map((r) => r.answered));
  const b = median(floor.map((r) => r.answered));
  const usableA = median(app.map((r) => r.usable));
  const usableB = median(floor.map((r) => r.usable));
  return [
    figure({
      name: "window_with_plugins",
      value: a,
      unit: "ms",
      floor: b,
      target: { on: "ratio", max: 1.1 },
      text:
        `spawn → window interactive → first message answered with ${PLUGINS} plugins installed ${ms(a)} vs none ${ms(b)} ` +
        `(${(a / b).toFixed(2)}x; median of ${ROUNDS}); the window alone: ${ms(usableA)} vs ${ms(usableB)} ` +
        `(${(usableA / usableB).toFixed(2)}x)`,
      extra: {
        usable_ms: usableA,
        floor_usable_ms: usableB,
        usable_ratio: usableA / usableB,
        plugins: PLUGINS,
      },
    }),
  ];
}
