// cold_start (SPEC §12): from spawning the web host to the chat input being usable (a message can
// be typed and sent) with the session list loaded — 1,000 chats of 20 messages in the store — vs
// its floor: a static page of the app's first-load size, showing the same things, from a bare Node
// server, the same steps in the same browser. Rounds alternate so the machine's load hits both.
// (It stopped at the first paint of the app's navigation, before the host had started at all.)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { findChromium } from "../find-chromium.mjs";
import { median, ms } from "./stats.mjs";
import { figure } from "./figure.mjs";
import { startLoopbackProvider } from "./loopback-provider.mjs";
import { seedSessions } from "./seed-sessions.mjs";
import {
  appLaunch,
  copyHome,
  firstLoad,
  staticFloorServer,
  timeStart,
  writeConfig,
} from "./window-start.mjs";
// Headless Chromium on a closed network: no sandbox as root, no background fetches.
import chromiumArgs from "../chromium-args.json" with { type: "json" };

const ROUNDS = 5;
const SESSIONS = 1000;
const MESSAGES = 20;

export async function run() {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("no Chromium found (apt-get install chromium)");
  const provider = await startLoopbackProvider();
  const seeded = mkdtempSync(join(tmpdir(), "hermes-bench-cold-"));
  const load = firstLoad();
  const floorSource = staticFloorServer(load);
  const browser = await chromium.launch({ executablePath, args: chromiumArgs });
  const app = [];
  const floor = [];
  try {
    writeConfig(seeded, provider.baseURL);
    const store = await seedSessions(seeded, { sessions: SESSIONS, messages: MESSAGES });
    if (store.messages !== SESSIONS * MESSAGES) throw new Error(`seeded ${store.messages} messages`);
    for (let i = 0; i < ROUNDS; i++) {
      const { home, cleanup } = copyHome(seeded);
      try {
        app.push((await timeStart(browser, appLaunch(home))).usable);
      } finally {
        cleanup();
      }
      floor.push((await timeStart(browser, ["-e", floorSource])).usable);
    }
  } finally {
    await browser.close();
    await provider.close();
    rmSync(seeded, { recursive: true, force: true });
  }
  const a = median(app);
  const b = median(floor);
  const kb = Math.round((load.html + load.js + load.css) / 1024);
  return [
    figure({
      name: "cold_start",
      value: a,
      unit: "ms",
      floor: b,
      target: { on: "ratio", max: 2.0 },
      text:
        `spawn → chat input usable with the session list loaded (${SESSIONS} chats × ${MESSAGES} messages) ${ms(a)} ` +
        `vs a static page of the same first-load size (${kb} KB) ${ms(b)} (${(a / b).toFixed(2)}x; median of ${ROUNDS}; ` +
        `app ${app.map((x) => x.toFixed(0)).join(" ")}, floor ${floor.map((x) => x.toFixed(0)).join(" ")} ms)`,
      extra: {
        first_load_bytes: load.html + load.js + load.css,
        sessions: SESSIONS,
        messages: SESSIONS * MESSAGES,
      },
    }),
  ];
}
