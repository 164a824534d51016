#!/usr/bin/env node
// `node scripts/cold-start-timeline.mjs [--out DIR] [--runs N] [--trace] [--build DIR]`: where
// cold_start's time goes (scripts/bench/cold-start.bench.mjs, the same home: 1,000 chats × 20
// messages): one timeline per run from spawning the web host to the chat input being usable —
// the URL printed, each file of the page, the socket, each RPC's latency as the page saw it — and
// the host's own CPU profile (`--cpu-prof`) cut into the same phases, its busiest code by package
// (mapped through the bundle's source map). `--trace` keeps a Chromium trace per run in DIR (open
// it in DevTools' Performance panel). `--build DIR` times another build's out/ (inside the repo).
/* global document -- the page functions run in Chromium */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { SourceMapConsumer } from "source-map-js";
import { findChromium } from "./find-chromium.mjs";
import { copyHome, writeConfig } from "./bench/window-start.mjs";
import { seedSessions } from "./bench/seed-sessions.mjs";
import { startLoopbackProvider } from "./bench/loopback-provider.mjs";
import { spawnUntilUrl, stopChild } from "./bench/spawn-url.mjs";
import chromiumArgs from "./chromium-args.json" with { type: "json" };

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const outDir = resolve(option("--out", mkdtempSync(join(tmpdir(), "hermes-timeline-"))));
const runs = Number(option("--runs", "3"));
const build = resolve(option("--build", join(root, "out")));
const trace = args.includes("--trace");
if (!(runs > 0)) {
  console.error("Usage: node scripts/cold-start-timeline.mjs [--out DIR] [--runs N] [--trace] [--build DIR]");
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });

/** Monotonic µs, the clock V8's CPU profiles are stamped with. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

async function oneRun(browser, home, index) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const profDir = join(outDir, `prof-${index}`);
  const marks = [];
  const t0 = nowUs();
  const mark = (what) => marks.push([what, (nowUs() - t0) / 1000]);
  const calls = new Map();
  page.on("request", (r) => mark(`request ${new URL(r.url()).pathname}`));
  page.on("requestfinished", (r) => mark(`served  ${new URL(r.url()).pathname}`));
  page.on("websocket", (ws) => {
    mark("socket created");
    ws.on("framesent", ({ payload }) => {
      for (const frame of [JSON.parse(String(payload))].flat()) {
        if (frame.id !== undefined)
          calls.set(frame.id, { method: frame.method, sent: (nowUs() - t0) / 1000 });
      }
    });
    ws.on("framereceived", ({ payload }) => {
      for (const frame of [JSON.parse(String(payload))].flat()) {
        const call = calls.get(frame.id);
        if (call && call.answered === undefined) call.answered = (nowUs() - t0) / 1000;
      }
    });
  });
  if (trace)
    await browser.startTracing(page, { path: join(outDir, `trace-${index}.json`), screenshots: false });
  const { child, url } = spawnUntilUrl(
    ["--cpu-prof", `--cpu-prof-dir=${profDir}`, join(build, "app", "web.js"), "--port", "0", "--home", home],
    { cwd: root },
  );
  try {
    await page.goto(await url, { waitUntil: "commit" });
    mark("navigation committed");
    await page.waitForEvent("load");
    mark("load event");
    const box = page.locator('textarea[aria-label="Message"]');
    await Promise.all([
      page
        .locator('nav[aria-label="Chats"] li.session-row')
        .first()
        .waitFor({ state: "visible" })
        .then(() => mark("chats listed")),
      (async () => {
        await box.waitFor({ state: "visible" });
        mark("message box visible");
        await page.waitForFunction(() => !document.querySelector('textarea[aria-label="Message"]')?.disabled);
        mark("message box enabled");
        await box.fill("Hello");
        await page.waitForFunction(() => !document.querySelector('button[aria-label="Send"]')?.disabled);
        mark("USABLE (send enabled)");
      })(),
    ]);
  } finally {
    if (trace) await browser.stopTracing();
    await stopChild(child);
    await context.close();
  }
  for (const [id, call] of calls) {
    marks.push([`rpc ${id} ${call.method} sent`, call.sent]);
    if (call.answered !== undefined) {
      marks.push([
        `rpc ${id} ${call.method} answered (${(call.answered - call.sent).toFixed(0)} ms)`,
        call.answered,
      ]);
    }
  }
  marks.sort((a, b) => a[1] - b[1]);
  const usable = marks.find(([what]) => what.startsWith("USABLE"))[1];
  return { marks, usable, profile: readProfile(profDir, t0) };
}

/** The host's CPU profile, its samples as [ms since spawn, leaf node] pairs. */
function readProfile(dir, t0) {
  if (!existsSync(dir)) return null;
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) return null;
  const profile = JSON.parse(readFileSync(join(dir, file), "utf8"));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parents = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id);
  let t = profile.startTime;
  const samples = profile.samples.map((id, i) => {
    t += profile.timeDeltas[i];
    return [(t - t0) / 1000, id];
  });
  return { nodes, parents, samples, start: (profile.startTime - t0) / 1000 };
}

const maps = new Map();
function sourceOf(url, line, column) {
  if (!url.startsWith("file://")) return url || "(native)";
  const path = fileURLToPath(url);
  if (!maps.has(path)) {
    maps.set(
      path,
      existsSync(`${path}.map`)
        ? new SourceMapConsumer(JSON.parse(readFileSync(`${path}.map`, "utf8")))
        : null,
    );
  }
  const map = maps.get(path);
  if (!map) return path.replace(root + "/", "");
  const at = { line: line + 1, column };
  const source =
    map.originalPositionFor(at).source ??
    map.originalPositionFor({ ...at, bias: SourceMapConsumer.LEAST_UPPER_BOUND }).source ??
    `${path.replace(root + "/", "")} (top level)`;
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(source);
  return pkg
    ? pkg[1]
    : source
        .replace(/^(\.\.\/)+/, "")
        .split("/")
        .slice(0, 4)
        .join("/");
}

/** Self time per package/folder of the samples in [from, to). */
function busiest(profile, from, to) {
  const by = new Map();
  let total = 0;
  for (const [t, id] of profile.samples) {
    if (t < from || t >= to) continue;
    const node = profile.nodes.get(id);
    const name = node.callFrame.functionName;
    if (name === "(idle)") continue;
    const key = name.startsWith("(")
      ? name
      : sourceOf(node.callFrame.url, node.callFrame.lineNumber, node.callFrame.columnNumber);
    by.set(key, (by.get(key) ?? 0) + 1);
    total++;
  }
  const interval =
    profile.samples.length > 1
      ? (profile.samples.at(-1)[0] - profile.samples[0][0]) / profile.samples.length
      : 1;
  return {
    busyMs: total * interval,
    top: [...by]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([k, n]) => `${(n * interval).toFixed(0)} ms ${k}`),
  };
}

const executablePath = findChromium();
if (!executablePath) throw new Error("no Chromium found (apt-get install chromium)");
const provider = await startLoopbackProvider();
const seeded = mkdtempSync(join(tmpdir(), "hermes-timeline-home-"));
const browser = await chromium.launch({ executablePath, args: chromiumArgs });
try {
  writeConfig(seeded, provider.baseURL);
  await seedSessions(seeded, { sessions: 1000, messages: 20 });
  for (let i = 0; i < runs; i++) {
    const { home, cleanup } = copyHome(seeded);
    let result;
    try {
      result = await oneRun(browser, home, i);
    } finally {
      cleanup();
    }
    console.log(
      `\n== run ${i + 1}: usable at ${result.usable.toFixed(0)} ms (load ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]})`,
    );
    for (const [what, t] of result.marks) console.log(`${t.toFixed(0).padStart(6)} ms  ${what}`);
    if (result.profile) {
      const p = result.profile;
      const printed = result.marks.find(([w]) => w === "navigation committed")?.[1] ?? 0;
      const phases = [
        ["spawn → profile start (Node boot)", -Infinity, p.start],
        ["profile start → page committed", p.start, printed],
        ["page committed → usable", printed, result.usable],
      ];
      console.log(`host CPU profile: starts ${p.start.toFixed(0)} ms after spawn`);
      for (const [name, from, to] of phases.slice(1)) {
        const b = busiest(p, from, to);
        console.log(`  ${name}: host busy ${b.busyMs.toFixed(0)} ms\n    ${b.top.join("\n    ")}`);
      }
    }
  }
} finally {
  await browser.close();
  await provider.close();
  rmSync(seeded, { recursive: true, force: true });
}
console.log(`\nprofiles${trace ? " and traces" : ""} in ${outDir}`);
