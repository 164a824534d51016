#!/usr/bin/env node
// `node scripts/cold-start-ab.mjs <out dir> [<out dir> …] [--rounds N] [--usable]`: the first steps of
// cold_start (scripts/bench/cold-start.bench.mjs), up to the navigation's first paint, on an empty
// home, for several builds and cold_start's static floor page, alternated round by
// round in one browser, so a shared machine's load falls on all of them alike. `--usable` times
// cold_start's whole figure instead: its home (1,000 chats × 20 messages) to the chat input usable. Build the old code
// into another folder first (e.g. `cp -r out /tmp/old-out` before rebuilding; the copy must sit
// where `node_modules` resolves, so inside the repo: `.bench/` is ignored by git).
// Per build: the medians of launch → URL printed, URL → load event, load → nav visible, and
// of the server's own CPU time at that moment; the load average of each round comes last.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { findChromium } from "./find-chromium.mjs";
import { copyHome, staticFloorServer, timeStart, writeConfig } from "./bench/window-start.mjs";
import { seedSessions } from "./bench/seed-sessions.mjs";
import { startLoopbackProvider } from "./bench/loopback-provider.mjs";
import { spawnUntilUrl, stopChild } from "./bench/spawn-url.mjs";
import chromiumArgs from "./chromium-args.json" with { type: "json" };

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 9;
const usable = args.includes("--usable");
const builds = args
  .filter((arg, i) => !arg.startsWith("--") && i !== roundsAt + 1)
  .map((dir) => resolve(dir));
if (builds.length === 0 || !(rounds > 0)) {
  console.error("Usage: node scripts/cold-start-ab.mjs <out dir> [<out dir> …] [--rounds N] [--usable]");
  process.exit(2);
}

/** utime + stime of a process in ms (Linux), or NaN where /proc is not there. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

const loadAverage = () => {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ")[0];
  } catch {
    return "?";
  }
};

async function measure(browser, launchArgs) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const t0 = performance.now();
  const { child, url } = spawnUntilUrl(launchArgs, { cwd: root });
  try {
    const address = await url;
    const printed = performance.now();
    await page.goto(address);
    const loaded = performance.now();
    await page.locator('nav[aria-label="Main"]').first().waitFor({ state: "visible" });
    const visible = performance.now();
    return {
      url: printed - t0,
      load: loaded - printed,
      nav: visible - loaded,
      total: visible - t0,
      cpu: cpuMs(child.pid),
      loadAverage: loadAverage(),
    };
  } finally {
    await stopChild(child);
    await context.close();
  }
}

const executablePath = findChromium();
if (!executablePath) throw new Error("no Chromium found (apt-get install chromium)");
const browser = await chromium.launch({ executablePath, args: chromiumArgs });
const names = [...builds, "static"];
const results = new Map(names.map((name) => [name, []]));
const provider = usable ? await startLoopbackProvider() : null;
const seeded = usable ? mkdtempSync(join(tmpdir(), "hermes-ab-seeded-")) : null;
try {
  if (usable) {
    writeConfig(seeded, provider.baseURL);
    await seedSessions(seeded, { sessions: 1000, messages: 20 });
  }
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      const { home, cleanup } = usable
        ? copyHome(seeded)
        : ((dir) => ({ home: dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }))(
            mkdtempSync(join(tmpdir(), "hermes-ab-")),
          );
      const launchArgs =
        name === "static"
          ? ["-e", staticFloorServer()]
          : [join(name, "app", "web.js"), "--port", "0", "--home", home];
      try {
        results
          .get(name)
          .push(
            usable
              ? { total: (await timeStart(browser, launchArgs)).usable, loadAverage: loadAverage() }
              : await measure(browser, launchArgs),
          );
      } finally {
        cleanup();
      }
    }
  }
} finally {
  await browser.close();
  await provider?.close();
  if (seeded) rmSync(seeded, { recursive: true, force: true });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const baseline = median(results.get("static").map((r) => r.total));
if (usable) {
  console.log("build: spawn → chat input usable, median (ratio to static) [each round] | load averages");
  for (const [name, runs] of results) {
    const total = median(runs.map((r) => r.total));
    console.log(
      `${name}: ${total.toFixed(0)} ms (${(total / baseline).toFixed(2)}x) [${runs.map((r) => r.total.toFixed(0)).join(" ")}] | ` +
        runs.map((r) => r.loadAverage).join(" "),
    );
  }
  process.exit(0);
}
console.log("build: launch→URL, URL→load, load→nav, total (ratio to static), server CPU | load averages");
for (const [name, runs] of results) {
  const m = (key) => median(runs.map((r) => r[key])).toFixed(0);
  const ratio = (median(runs.map((r) => r.total)) / baseline).toFixed(2);
  console.log(
    `${name}: ${m("url")}, ${m("load")}, ${m("nav")}, ${m("total")} ms (${ratio}x), ${m("cpu")} ms | ` +
      runs.map((r) => r.loadAverage).join(" "),
  );
}
