// local_scan_start (issue 30): what the first run's scan for local model servers adds to the window's
// start. The welcome screen scans once it is interactive, so a scan whose servers all hang (each probe
// runs out its 300 ms) should add nothing to launch → interactive. Measured against the same first
// run whose probes are refused at once (nothing listening), launched right before or after it in the
// same round; the figure is the median of the rounds' differences (raw samples kept in the JSON).
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { findChromium } from "../find-chromium.mjs";
import { spawnUntilUrl, stopChild } from "./spawn-url.mjs";
import { median, ms } from "./stats.mjs";
import { figure } from "./figure.mjs";
import chromiumArgs from "../chromium-args.json" with { type: "json" };

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const rounds = 8;

/** A port that accepts connections and never answers: every probe of it waits out its deadline. */
async function hangingPort() {
  const sockets = new Set();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    close: () => {
      sockets.forEach((s) => s.destroy());
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function closedPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Launch → the welcome screen usable (its Add a provider button shown). */
async function measure(browser, env) {
  const home = mkdtempSync(join(tmpdir(), "hermes-bench-scan-"));
  const context = await browser.newContext();
  const page = await context.newPage();
  const t0 = performance.now();
  const { child, url } = spawnUntilUrl([join(root, "out", "app", "web.js"), "--port", "0", "--home", home], {
    cwd: root,
    env,
  });
  try {
    await page.goto(await url);
    await page.getByRole("button", { name: "Add a provider" }).waitFor({ state: "visible" });
    return performance.now() - t0;
  } finally {
    await stopChild(child);
    await context.close();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function run() {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("no Chromium found (apt-get install chromium)");
  const browser = await chromium.launch({ executablePath, args: chromiumArgs });
  const ollama = await hangingPort();
  const llama = await hangingPort();
  const hanging = { OLLAMA_HOST: `127.0.0.1:${ollama.port}`, LLAMA_ARG_PORT: String(llama.port) };
  const refused = {
    OLLAMA_HOST: `127.0.0.1:${await closedPort()}`,
    LLAMA_ARG_PORT: String(await closedPort()),
  };
  const withScan = [];
  const base = [];
  try {
    // ABBA: whichever launch comes first in a pair runs slower here, so each goes first half the time.
    for (let i = 0; i < rounds; i++) {
      if (i % 2 === 0) {
        withScan.push(await measure(browser, hanging));
        base.push(await measure(browser, refused));
      } else {
        base.push(await measure(browser, refused));
        withScan.push(await measure(browser, hanging));
      }
    }
  } finally {
    await browser.close();
    await ollama.close();
    await llama.close();
  }
  const a = median(withScan);
  const b = median(base);
  // Each round's two launches ran back to back, so their difference has the same load on both
  // sides; the median of those differences is the figure (a difference of two medians mixes
  // rounds, and on a shared machine it swung by hundreds of ms, either way, between runs).
  const paired = withScan.map((x, i) => x - base[i]);
  const added = median(paired);
  const whole = (xs) => xs.map((x) => Math.round(x));
  return [
    figure({
      name: "local_scan_start",
      value: a,
      unit: "ms",
      target: { on: "added_ms", max: 50 },
      extra: {
        added_ms: added,
        baseline_ms: b,
        with_scan_ms: whole(withScan),
        refused_ms: whole(base),
        paired_added_ms: whole(paired),
      },
      text:
        `${ms(a)} launch to interactive first run while the local-server scan waits on servers that hang ` +
        `(probes refused at once: ${ms(b)}); added ${ms(added)}, the median of ${rounds} paired rounds ` +
        `(${whole(paired).join(" ")} ms)`,
    }),
  ];
}
