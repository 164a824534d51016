/**
 * Web mode learns when the page has been sent everything its first paint waits for (the shell,
 * its scripts, module preloads and style sheets; not its icon), so the host can start then.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EventHub } from "../../../electron/host/events.js";
import { startWebServer } from "../../../electron/web/server.js";
import { blockingFilesOf, watchShellServed } from "../../../electron/web/shell-served.js";
import { tempHome, waitFor } from "../support/temp-home.js";

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const shell = [
  "<!doctype html><html><head>",
  '<link rel="icon" type="image/svg+xml" href="./favicon.svg" />',
  '<script type="module" crossorigin src="./assets/index-1.js"></script>',
  '<link rel="modulepreload" crossorigin href="./assets/runtime-2.js">',
  '<link rel="stylesheet" crossorigin href="./assets/index-3.css?v=1">',
  '<link rel="preconnect" href="https://fonts.example">',
  '<script src="https://cdn.example/x.js"></script>',
  '<script src="./../outside.js"></script>',
  "</head><body><div id=root></div></body></html>",
].join("\n");

describe("the files the first paint waits for", () => {
  it("are the shell's scripts, module preloads and style sheets inside the site, not its icon", () => {
    const root = "/site";
    expect(blockingFilesOf(shell, root)).toEqual([
      "/site/assets/index-1.js",
      "/site/assets/runtime-2.js",
      "/site/assets/index-3.css",
    ]);
  });

  it("are none for a shell that names nothing", () => {
    expect(blockingFilesOf("<!doctype html><title>x</title>", "/site")).toEqual([]);
  });
});

describe("watchShellServed", () => {
  it("tells once, when every expected file was sent, in any order, even before they were known", () => {
    let told = 0;
    const watch = watchShellServed(() => (told += 1));
    watch.served("/site/b.js");
    watch.expect(["/site/index.html", "/site/a.css", "/site/b.js"]);
    watch.served("/site/a.css");
    watch.served("/site/favicon.svg");
    expect(told).toBe(0);
    watch.served("/site/index.html");
    expect(told).toBe(1);
    watch.served("/site/index.html");
    watch.expect(["/site/other.js"]);
    expect(told).toBe(1);
  });

  it("never tells while a file is missing, nor without knowing what to expect", () => {
    let told = 0;
    const unknown = watchShellServed(() => (told += 1));
    unknown.served("/site/index.html");
    const partial = watchShellServed(() => (told += 1));
    partial.expect(["/site/index.html", "/site/a.js"]);
    partial.served("/site/index.html");
    expect(told).toBe(0);
  });
});

describe("the web server's onShellServed", () => {
  async function siteServer(files: Record<string, string>): Promise<{ base: string; told: () => number }> {
    const site = tempHome("hermes-shell-served-");
    cleanups.push(() => site.cleanup());
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(site.dir, name, ".."), { recursive: true });
      writeFileSync(join(site.dir, name), text);
    }
    let told = 0;
    const server = await startWebServer({
      router: {
        handle: () => Promise.reject(new Error("no call is made in this test")),
      },
      events: new EventHub(),
      token: "shell-served-test-token-0123456789abcdef",
      port: 0,
      staticDir: site.dir,
      onShellServed: () => (told += 1),
    });
    cleanups.push(() => server.close());
    return { base: `http://127.0.0.1:${server.port}`, told: () => told };
  }

  it("fires once the page has fetched the shell and every file it waits for, not before", async () => {
    const site = await siteServer({
      "index.html": shell,
      "assets/index-1.js": "console.log(1)",
      "assets/runtime-2.js": "export {}",
      "assets/index-3.css": "body{}",
      "favicon.svg": "<svg/>",
    });
    const get = async (path: string) => {
      const res = await fetch(site.base + path);
      expect(res.status, path).toBe(200);
      await res.arrayBuffer();
    };
    await get("/?token=shell-served-test-token-0123456789abcdef");
    await get("/assets/index-1.js");
    await get("/favicon.svg");
    await get("/assets/runtime-2.js");
    // A HEAD sends no file: the style sheet is still owed.
    expect((await fetch(site.base + "/assets/index-3.css", { method: "HEAD" })).status).toBe(200);
    expect(site.told()).toBe(0);
    await get("/assets/index-3.css?v=1");
    await waitFor(() => site.told() === 1, 5000, "onShellServed");
    await get("/");
    await get("/assets/index-1.js");
    expect(site.told()).toBe(1);
  });

  it("never fires when the site is not built (no shell to read)", async () => {
    const site = await siteServer({});
    expect((await fetch(site.base + "/")).status).toBe(503);
    expect((await fetch(site.base + "/assets/index-1.js")).status).toBe(404);
    expect(site.told()).toBe(0);
  });
});
