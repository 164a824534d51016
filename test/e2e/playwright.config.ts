/**
 * End-to-end tests: Debian's Chromium (never a downloaded browser) driving the web UI that
 * `node out/app/web.js` serves. `scripts/test.mjs` builds `out/` first and sets CHROMIUM_PATH
 * and PLAYWRIGHT_JSON_OUTPUT_NAME.
 */
import { defineConfig } from "@playwright/test";
import chromiumArgs from "../../scripts/chromium-args.json" with { type: "json" };

const chromiumPath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  // Artifacts (traces, failure screenshots) go next to the other test reports, not into the sources.
  outputDir: "../../test-results/e2e-artifacts",
  // Two cores: each test runs a host process, a fake provider and a browser.
  workers: 2,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json"]],
  use: {
    browserName: "chromium",
    headless: true,
    viewport: { width: 1280, height: 800 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
    },
  },
  projects: [{ name: "debian-chromium", use: { browserName: "chromium" } }],
});
