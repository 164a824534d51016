// rpc_roundtrip (SPEC §12): a plugin page's `hermesPlugin.request` in Chromium → the page's own
// socket (web mode: `/plugin-pages/<id>/__hermes/socket`, the frame's page token) → the web host →
// the plugin's handler in its worker → back to the page, p50 and p99 over 2,000 calls; vs its
// floor: a bare WebSocket echo (a page on a plain `ws` server) whose server passes each message
// through the bare worker hop (hop-floor.mjs: a bare relay process and a bare worker) before
// echoing it, in the same browser on the same machine. p50 ≤ 1.15x, p99 ≤ 1.3x. Both
// measured in the page with performance.now, whose 0.1 ms steps are read as grouped data
// (stats.mjs `steppedPercentile`). The page is opened from the app's navigation, as a
// person would, so it runs exactly the path pages run.
import { createServer } from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import WebSocket, { WebSocketServer } from "ws";
import { findChromium } from "../find-chromium.mjs";
import { figure } from "./figure.mjs";
import { spawnUntilUrl, stopChild } from "./spawn-url.mjs";
import { percentile, steppedPercentile } from "./stats.mjs";
import { loadHost, memoryKeychain } from "./plugin-host-rig.mjs";
import { startHopFloor } from "./hop-floor.mjs";
import chromiumArgs from "../chromium-args.json" with { type: "json" };

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const WARMUP = 200;
const CALLS = 2000;
/** How far apart a page's `performance.now()` readings are (Chromium, not cross-origin isolated). */
const PAGE_CLOCK_STEP_MS = 0.1;

/** Runs `calls` sequential round trips in the page through `roundTrip` (a page-side function body). */
const timeInPage = (target, roundTrip) =>
  target.evaluate(
    async ({ warmup, calls, body }) => {
      const once = new Function(`return (${body})`)();
      for (let i = 0; i < warmup; i++) await once(i);
      const out = [];
      for (let i = 0; i < calls; i++) {
        const t0 = performance.now();
        await once(i);
        out.push(performance.now() - t0);
      }
      return out;
    },
    { warmup: WARMUP, calls: CALLS, body: roundTrip },
  );

async function bareEcho(browser, hop) {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>echo</title>");
  });
  const wss = new WebSocketServer({ server });
  wss.on("connection", (ws) =>
    ws.on("message", async (data) => ws.send(hop ? await hop.echo(String(data)) : String(data))),
  );
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const page = await browser.newPage();
  try {
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          const ws = new WebSocket(`ws://${location.host}/`);
          const waiting = new Map();
          ws.onmessage = (e) => {
            const { id } = JSON.parse(e.data);
            waiting.get(id)?.();
            waiting.delete(id);
          };
          window.echo = (i) =>
            new Promise((done) => {
              waiting.set(i, done);
              ws.send(JSON.stringify({ jsonrpc: "2.0", id: i, method: "echo", params: { i } }));
            });
          ws.onopen = resolve;
        }),
    );
    return await timeInPage(page, "(i) => window.echo(i)");
  } finally {
    await page.close();
    for (const client of wss.clients) client.terminate();
    wss.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

function homeWithEchoPlugin() {
  const home = mkdtempSync(join(tmpdir(), "hermes-bench-rpc-"));
  const dir = join(home, "plugins", "bench-echo");
  mkdirSync(join(dir, "page"), { recursive: true });
  writeFileSync(
    join(dir, "plugin.yaml"),
    "name: bench-echo\nversion: 1.0.0\nmain: index.js\npages:\n  - {id: echo, title: Echo, entry: page/index.html}\n",
  );
  writeFileSync(
    join(dir, "index.js"),
    `export function register(ctx) { ctx.registerRpc("echo", (p) => p); }`,
  );
  writeFileSync(
    join(dir, "page", "index.html"),
    "<!doctype html><html><head><title>Echo</title></head></html>",
  );
  writeFileSync(join(home, "config.yaml"), "plugins:\n  enabled: [bench-echo]\n");
  return home;
}

async function pluginPage(browser) {
  const home = homeWithEchoPlugin();
  const { child, url } = spawnUntilUrl([join(root, "out", "app", "web.js"), "--port", "0", "--home", home], {
    cwd: root,
    name: "web host",
  });
  const page = await browser.newPage();
  try {
    await page.goto(await url);
    await page
      .getByRole("navigation", { name: "Plugin pages" })
      .getByRole("button", { name: "Echo" })
      .click();
    await page.waitForSelector('iframe[title="bench-echo: Echo"]');
    let frame;
    for (let i = 0; i < 200 && !frame; i++) {
      frame = page.frames().find((f) => f.url().includes("/plugin-pages/bench-echo/"));
      if (!frame) await page.waitForTimeout(25);
    }
    if (!frame) throw new Error("the plugin page did not open");
    await frame.waitForFunction(() => typeof window.hermesPlugin?.request === "function");
    const full = await timeInPage(frame, '(i) => window.hermesPlugin.request("echo", { i })');
    // The page ⇄ host hop alone: another plugin's method is refused at the page socket, no plugin call.
    const bridge = await timeInPage(
      frame,
      '() => window.hermesPlugin.request("plugin.other.echo").catch(() => null)',
    );
    return { full, bridge };
  } finally {
    await page.close();
    await stopChild(child);
    rmSync(home, { recursive: true, force: true });
  }
}

/** Sequential round trips of a Node `ws` client: `call(i)` sends request i and awaits its answer. */
async function nodeClient(url, protocols) {
  const ws = new WebSocket(url, protocols);
  const waiting = new Map();
  ws.on("message", (data) => {
    const { id } = JSON.parse(String(data));
    waiting.get(id)?.();
    waiting.delete(id);
  });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const call = (i, method, params) =>
    new Promise((done) => {
      waiting.set(i, done);
      ws.send(JSON.stringify({ jsonrpc: "2.0", id: i, method, params }));
    });
  return { call, close: () => ws.close() };
}

async function timeInNode(call) {
  for (let i = 0; i < WARMUP; i++) await call(i);
  const out = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await call(i);
    out.push(performance.now() - t0);
  }
  return out;
}

/**
 * The host's share alone, without the browser: a Node client over the real WebSocket calling the
 * plugin's handler vs the same client against a bare `ws` echo. It tells the host's hops (router,
 * plugin host, worker) from the browser's (the page's frame to the app and back).
 */
async function hostShare() {
  const home = homeWithEchoPlugin();
  const { createHost } = await loadHost("create-host.js");
  const { createVault } = await loadHost("secrets/vault.js");
  const { tokenSubprotocol, RPC_SUBPROTOCOL } = await loadHost("rpc/web-token.js");
  const { startWebServer } = await import(
    pathToFileURL(join(root, "out", "electron", "web", "server.js")).href
  );
  const host = createHost({
    home,
    vault: createVault(memoryKeychain(), {}),
    mode: "web",
    version: "bench",
    bundledPluginsDir: null,
  });
  const token = "bench-token-".padEnd(40, "x");
  const server = await startWebServer({
    router: host.router,
    events: host.events,
    token,
    port: 0,
    staticDir: home,
    log: () => undefined,
  });
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  wss.on("connection", (ws) => ws.on("message", (data) => ws.send(String(data))));
  await new Promise((resolve) => wss.once("listening", resolve));
  try {
    await host.plugins.ready();
    for (let i = 0; i < 400 && !host.plugins.isLoaded("bench-echo"); i++)
      await new Promise((r) => setTimeout(r, 25));
    const app = await nodeClient(`ws://127.0.0.1:${server.port}/rpc`, [
      RPC_SUBPROTOCOL,
      tokenSubprotocol(token),
    ]);
    const bare = await nodeClient(`ws://127.0.0.1:${wss.address().port}/`);
    const viaHost = await timeInNode((i) => app.call(i, "plugin.bench-echo.echo", { i }));
    const echo = await timeInNode((i) => bare.call(i, "echo", { i }));
    app.close();
    bare.close();
    return { viaHost, echo };
  } finally {
    for (const client of wss.clients) client.terminate();
    wss.close();
    await server.close();
    await host.close();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function run() {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("no Chromium found (apt-get install chromium)");
  const browser = await chromium.launch({ executablePath, args: chromiumArgs });
  const hop = await startHopFloor();
  let base;
  let echoOnly;
  let app;
  let bridge;
  try {
    base = await bareEcho(browser, hop);
    echoOnly = await bareEcho(browser, null);
    ({ full: app, bridge } = await pluginPage(browser));
  } finally {
    hop.close();
    await browser.close();
  }
  const host = await hostShare();
  const hostP50 = percentile(host.viaHost, 50);
  const hostEchoP50 = percentile(host.echo, 50);
  const pagePercentile = (xs, p) => steppedPercentile(xs, p, PAGE_CLOCK_STEP_MS);
  const p50 = pagePercentile(app, 50);
  const p99 = pagePercentile(app, 99);
  const baseP50 = pagePercentile(base, 50);
  const baseP99 = pagePercentile(base, 99);
  const p50Ratio = p50 / baseP50;
  const p99Ratio = p99 / baseP99;
  return [
    figure({
      name: "rpc_roundtrip",
      value: p50,
      unit: "ms",
      floor: baseP50,
      target: { on: "ratio", max: 1.15 },
      also: [{ on: "p99_ratio", max: 1.3 }],
      text:
        `page → host → plugin handler → page vs a bare WebSocket echo through the bare worker hop, in Chromium: ` +
        `p50 ${p50.toFixed(3)} ms vs ${baseP50.toFixed(3)} ms (${p50Ratio.toFixed(2)}x), ` +
        `p99 ${p99.toFixed(3)} ms vs ${baseP99.toFixed(3)} ms (${p99Ratio.toFixed(2)}x) (${CALLS} calls); ` +
        `the bare echo without the hop: p50 ${pagePercentile(echoOnly, 50).toFixed(3)} ms; ` +
        `the host's share, from a Node client: p50 ${hostP50.toFixed(3)} ms vs a bare echo ${hostEchoP50.toFixed(3)} ms; ` +
        `a call the page socket refuses (no plugin hop): p50 ${pagePercentile(bridge, 50).toFixed(3)} ms`,
      extra: {
        p50,
        p99,
        floor_p50: baseP50,
        floor_p99: baseP99,
        p50_ratio: p50Ratio,
        p99_ratio: p99Ratio,
        echo_only_p50: pagePercentile(echoOnly, 50),
        bridge_p50: pagePercentile(bridge, 50),
        bridge_p99: pagePercentile(bridge, 99),
        host_p50: hostP50,
        host_p99: percentile(host.viaHost, 99),
        host_echo_p50: hostEchoP50,
        host_echo_p99: percentile(host.echo, 99),
      },
    }),
  ];
}
