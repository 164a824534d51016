// What cold_start and window_with_plugins time (SPEC §12): from spawning the web host to the chat
// input being usable — the Message box enabled, a typed message enabling Send — with the session
// list loaded (its first chat shown), and optionally on to a first message answered. The same
// steps run against a static floor page, which shows the same things at once.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnUntilUrl, stopChild } from "./spawn-url.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const rendererDir = join(root, "out", "renderer");

/** The web host of the built tree on `home`, as `npm run web` starts it. */
export const appLaunch = (home) => [join(root, "out", "app", "web.js"), "--port", "0", "--home", home];

/** A data home whose config.yaml names a keyless provider at `baseURL` as the main model. */
export function writeConfig(home, baseURL, extra = "") {
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, "config.yaml"),
    `providers:\n  bench:\n    name: Bench\n    base_url: ${baseURL}\nmodel:\n  provider: bench\n  model: bench/model\n${extra}`,
  );
}

/** A throwaway copy of `home` (a start writes to its home: the store's WAL, logs). */
export function copyHome(home) {
  const copy = mkdtempSync(join(tmpdir(), "hermes-bench-home-"));
  cpSync(home, copy, { recursive: true });
  return { home: copy, cleanup: () => rmSync(copy, { recursive: true, force: true }) };
}

/**
 * The app's first load: index.html and what it loads before any code runs (its module script,
 * module preloads and style sheets), by kind, in bytes.
 */
export function firstLoad(dir = rendererDir) {
  const html = readFileSync(join(dir, "index.html"), "utf8");
  const refs = (pattern) => [...html.matchAll(pattern)].map((m) => m[1]);
  const size = (paths) => paths.reduce((sum, p) => sum + readFileSync(join(dir, p)).length, 0);
  return {
    html: Buffer.byteLength(html),
    js: size([
      ...refs(/<script[^>]*\bsrc="([^"]+)"/g),
      ...refs(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
    ]),
    css: size(refs(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)),
  };
}

/**
 * The floor page: what the chat screen shows when usable (a Message box, a Send button, the list
 * of chats), served by a bare Node server, padded to the app's first load byte for byte (a script
 * and a style sheet of the app's sizes that do nothing). Returns the server's source for `node -e`.
 */
export function staticFloorServer(load = firstLoad()) {
  const rows = Array.from(
    { length: 40 },
    (_, i) => `<li class="session-row"><button type="button">Chat ${i}</button></li>`,
  ).join("");
  const body =
    `<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>Hermes Desktop</title>` +
    `<script type="module" src="./floor.js"></script><link rel="stylesheet" href="./floor.css"></head><body>` +
    `<nav aria-label="Main"><a>Chat</a></nav><nav aria-label="Chats"><ul>${rows}</ul></nav>` +
    `<main><textarea aria-label="Message" role="combobox" rows="1"></textarea>` +
    `<button type="button" aria-label="Send">Send</button></main></body></html>`;
  // The page's markup is larger than the app's shell (the app builds its markup in code): the
  // script is shorter by that much, so the floor's first load is the app's size in all. The
  // padding is made in the server (a command line cannot carry it).
  const sizes = { js: load.js + load.html - Buffer.byteLength(body), css: load.css };
  return `
const http = require("http");
const sizes = ${JSON.stringify(sizes)};
const pad = (bytes) => "/*" + "x".repeat(Math.max(0, bytes - 4)) + "*/";
const files = {
  "/": ["text/html", ${JSON.stringify(body)}],
  "/floor.js": ["text/javascript", pad(sizes.js)],
  "/floor.css": ["text/css", pad(sizes.css)],
};
const s = http.createServer((q, r) => {
  const file = files[q.url.split("?")[0]];
  if (!file) { r.writeHead(404).end(); return; }
  r.writeHead(200, { "Content-Type": file[0] + "; charset=utf-8" });
  r.end(file[1]);
});
s.listen(0, "127.0.0.1", () => console.log("Static page: http://127.0.0.1:" + s.address().port + "/"));`;
}

/**
 * One start, timed from spawn: `usable` when the chat input is usable with the session list loaded;
 * with `send`, `answered` when the reply to a first message is complete.
 */
export async function timeStart(browser, launchArgs, { send = false } = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const t0 = performance.now();
  const { child, url } = spawnUntilUrl(launchArgs, { cwd: root });
  try {
    await page.goto(await url);
    const box = page.locator('textarea[aria-label="Message"]');
    await Promise.all([
      page.locator('nav[aria-label="Chats"] li.session-row').first().waitFor({ state: "visible" }),
      (async () => {
        await box.waitFor({ state: "visible" });
        await page.waitForFunction(() => !document.querySelector('textarea[aria-label="Message"]')?.disabled);
        await box.fill("Hello");
        await page.waitForFunction(() => !document.querySelector('button[aria-label="Send"]')?.disabled);
      })(),
    ]);
    const usable = performance.now() - t0;
    if (!send) return { usable };
    await box.press("Enter");
    await page.locator('article[data-role="assistant"][data-status="complete"]').waitFor({ timeout: 60_000 });
    return { usable, answered: performance.now() - t0 };
  } finally {
    await stopChild(child);
    await context.close();
  }
}
