/**
 * The browser the tests and benches drive stands in for Electron's renderer, so it must not run
 * Chromium's own browser UI beside the page. Headless Chromium 156 opens two omnibox popup WebUIs
 * (`chrome://omnibox-popup.top-chrome/`) with every window: a renderer that used ~3 s of CPU in the
 * 3 s after each new context on this 2-core machine, inside whatever a test or bench measured.
 * scripts/chromium-args.json turns them off with `--disable-features`. Chromium keeps only the last
 * `--disable-features` switch, and Playwright passes its own list first: so ours must repeat
 * Playwright's, and this checks that it still does after a Playwright upgrade.
 */
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

const ourFeatures = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"];

const disabledFeatureLists = (commandLine: string): string[][] =>
  [...commandLine.matchAll(/--disable-features=(\S+)/g)].map((match) => match[1]!.split(","));

test("the test browser runs no browser UI of its own, and keeps Playwright's disabled features", async ({
  browser,
  page,
  playwright,
  launchOptions,
}) => {
  await page.goto("data:text/html,<p>page</p>");
  // A browser launched as the tests' is, whose process (and so command line) is known.
  const server = await playwright.chromium.launchServer(launchOptions);
  let commandLine: string;
  try {
    // NUL-separated at launch; Chromium may rewrite it later as its process title.
    commandLine = readFileSync(`/proc/${server.process().pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } finally {
    await server.close();
  }
  const lists = disabledFeatureLists(commandLine);
  expect(lists.length, "Playwright's list and ours").toBeGreaterThanOrEqual(2);
  const effective = lists[lists.length - 1]!;
  for (const feature of ourFeatures) expect(effective).toContain(feature);
  for (const earlier of lists.slice(0, -1))
    for (const feature of earlier)
      expect(effective, `Playwright disables ${feature}: add it to scripts/chromium-args.json`).toContain(
        feature,
      );

  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send("Target.getTargets")) as {
    targetInfos: { type: string; url: string }[];
  };
  expect(targetInfos.filter((target) => target.url.startsWith("chrome://"))).toEqual([]);
  expect(targetInfos.some((target) => target.url.startsWith("data:text/html"))).toBe(true);
});
