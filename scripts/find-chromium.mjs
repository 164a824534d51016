// Finds a Chromium for the end-to-end tests: $CHROMIUM_PATH, the distribution's, or Playwright's own.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const candidates = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

export function findChromium() {
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
  for (const path of candidates) if (existsSync(path)) return path;
  try {
    const { chromium } = require("playwright-core");
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // playwright-core has no browser of its own downloaded here.
  }
  return null;
}
