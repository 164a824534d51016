#!/usr/bin/env node
// Renders renderer/public/favicon.svg (the source) to favicon.png, which the page links: Chromium
// draws an SVG favicon by building a document for it on the page's main thread (twice, ~10 ms,
// right after the first paint), and decodes a PNG without one. Run after editing the SVG.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { findChromium } from "./find-chromium.mjs";
import chromiumArgs from "./chromium-args.json" with { type: "json" };

const size = 64;
const publicDir = join(dirname(fileURLToPath(import.meta.url)), "..", "renderer", "public");
const svg = readFileSync(join(publicDir, "favicon.svg"), "utf8");
const executablePath = findChromium();
if (!executablePath) throw new Error("no Chromium found (apt-get install chromium)");
const browser = await chromium.launch({ executablePath, args: chromiumArgs });
try {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  const source = `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
  await page.setContent(
    `<body style="margin:0"><img src="${source}" width="${size}" height="${size}" style="display:block"></body>`,
  );
  await page.locator("img").evaluate((img) => img.decode());
  writeFileSync(join(publicDir, "favicon.png"), await page.screenshot({ omitBackground: true }));
} finally {
  await browser.close();
}
console.log(`Wrote renderer/public/favicon.png (${size}×${size}) from favicon.svg.`);
