/**
 * The launch token stays with the app's own origin (docs/contract.md §11, issue 13): after the app is opened
 * in Chromium, a plain server on another 127.0.0.1 port must receive no cookie and no token from
 * the browser, while the app itself keeps working across a reload without the token in its URL.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures/app-test.js";

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

async function startBystander(): Promise<{ origin: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? "", headers: req.headers });
    res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>bystander</title>ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Chromium keeps its connection to the bystander alive; close it too, or close() waits on it.
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { origin, seen, close };
}

test("another local server receives no cookie and no token; the app survives a reload", async ({
  page,
  hermes,
}) => {
  const bystander = await startBystander();
  try {
    await page.goto(hermes.launchUrl);
    const welcome = page.getByRole("heading", { name: "Welcome to Hermes Desktop" });
    await expect(welcome).toBeVisible();
    // The token left the address bar and history (the fragment is the app's route); no cookie was set.
    await expect.poll(() => page.url()).toBe(`${hermes.origin}/#/chat`);
    expect(await page.context().cookies()).toEqual([]);
    expect(await page.evaluate(() => document.cookie)).toBe("");

    await page.reload();
    await expect(welcome).toBeVisible();

    // Another tab has no token (session storage is per tab) and says what to do.
    const otherTab = await page.context().newPage();
    await otherTab.goto(`${hermes.origin}/`);
    await expect(otherTab.getByRole("status")).toContainText(
      "This tab has no launch token. Open the URL Hermes Desktop printed at launch",
    );
    await otherTab.close();

    // A link from the app to another local port, then a visit of its own, then a request from it.
    await page.evaluate((href) => {
      const link = document.createElement("a");
      link.href = href;
      link.textContent = "away";
      document.body.append(link);
    }, `${bystander.origin}/from-app`);
    await page.getByRole("link", { name: "away" }).click();
    await page.waitForURL(`${bystander.origin}/from-app`);
    await page.goto(`${bystander.origin}/direct`);
    await page.evaluate(() => fetch("/fetched", { credentials: "include" }).then((r) => r.text()));

    expect(bystander.seen.map((s) => s.url)).toEqual(
      expect.arrayContaining(["/from-app", "/direct", "/fetched"]),
    );
    const leaked = bystander.seen.filter(
      (s) => s.headers.cookie !== undefined || JSON.stringify(s).includes(hermes.token),
    );
    console.log(
      `token scoping: ${bystander.seen.length} requests to another port, ${leaked.length} carried a cookie or the token`,
    );
    expect(leaked).toEqual([]);
    // The link from the app sends no Referer (Referrer-Policy: no-referrer on the shell).
    expect(bystander.seen.find((s) => s.url === "/from-app")?.headers.referer).toBeUndefined();
  } finally {
    await bystander.close();
  }
});
