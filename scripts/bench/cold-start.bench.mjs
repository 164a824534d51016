// cold_start (docs/contract.md §12): launch of the web host to the first interactive render of the UI in
// Chromium, against the same steps for a bare Node server serving one static page.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { findChromium } from "../find-chromium.mjs";
import { spawnUntilUrl, stopChild } from "./spawn-url.mjs";
import { median, ms } from "./stats.mjs";
import { figure } from "./figure.mjs";
// Headless Chromium on a closed network: no sandbox as root, no background fetches.
import chromiumArgs from "../chromium-args.json" with { type: "json" };

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const rounds = 5;

export const staticServer = `
const http = require("http");
const page = "<!doctype html><html><body><nav aria-label=Main><a>Chat</a></nav></body></html>";
const s = http.createServer((q, r) => { r.writeHead(200, {"Content-Type": "text/html"}); r.end(page); });
s.listen(0, "127.0.0.1", () => console.log("Static page: http://127.0.0.1:" + s.address().port + "/"));`;

const launch = (args) => spawnUntilUrl(args, { cwd: root });

async function measure(browser, start) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const t0 = performance.now();
  const { child, url } = start();
  try {
    await page.goto(await url);
    await page.locator('nav[aria-label="Main"]').first().waitFor({ state: "visible" });
    return performance.now() - t0;
  } finally {
    await stopChild(child);
    await context.close();
  }
}

export async function run() {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("no Chromium found (apt-get install chromium)");
  const browser = await chromium.launch({ executablePath, args: chromiumArgs });
  const app = [];
  const base = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const home = mkdtempSync(join(tmpdir(), "hermes-bench-"));
      app.push(
        await measure(browser, () =>
          launch([join(root, "out", "app", "web.js"), "--port", "0", "--home", home]),
        ),
      );
      rmSync(home, { recursive: true, force: true });
      base.push(await measure(browser, () => launch(["-e", staticServer])));
    }
  } finally {
    await browser.close();
  }
  const a = median(app);
  const b = median(base);
  return [
    figure({
      name: "cold_start",
      value: a,
      unit: "ms",
      floor: b,
      target: { on: "ratio", max: 2.0 },
      text: `${ms(a)} launch to interactive web UI (baseline static page ${ms(b)}; ratio ${(a / b).toFixed(2)}x; median of ${rounds})`,
    }),
  ];
}
