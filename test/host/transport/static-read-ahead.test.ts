/** The shell and its first files are served from memory once read ahead, and from disk once changed. */
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startWebServer } from "../../../electron/web/server.js";
import { readShellAhead, serveStatic } from "../../../electron/web/static-files.js";
import { tempHome } from "../support/temp-home.js";

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function siteWith(
  files: Record<string, string>,
): Promise<{ dir: string; get(path: string): Promise<string>; base: string }> {
  const temp = tempHome("hermes-read-ahead-");
  cleanups.push(() => temp.cleanup());
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(temp.dir, name, ".."), { recursive: true });
    writeFileSync(join(temp.dir, name), text);
  }
  const server: Server = createServer(
    (req, res) => void serveStatic(temp.dir, new URL(req.url ?? "/", "http://x").pathname, res, 0),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { dir: temp.dir, get: async (path) => (await fetch(base + path)).text(), base };
}

const shell =
  '<!doctype html><script type="module" src="./assets/app.js"></script><link rel="stylesheet" href="./assets/app.css">';

describe("the shell read ahead", () => {
  it("serves the files index.html loads from what was read ahead", async () => {
    const site = await siteWith({ "index.html": shell, "assets/app.js": "first", "assets/app.css": "a{}" });
    readShellAhead(site.dir);
    // Same size and mtime, other bytes on disk: what is served is the copy read ahead.
    const file = join(site.dir, "assets", "app.js");
    writeFileSync(file, "FIRST");
    utimesSync(file, new Date(0), new Date(0));
    readShellAhead(site.dir);
    writeFileSync(file, "xxxxx");
    utimesSync(file, new Date(0), new Date(0));
    expect(await site.get("/assets/app.js")).toBe("FIRST");
    expect(await site.get("/assets/app.css")).toBe("a{}");
    expect(await site.get("/")).toBe(shell);
  });

  it("is read by the time the web server listens, before the page's first request", async () => {
    const site = await siteWith({ "index.html": shell, "assets/app.js": "first", "assets/app.css": "a{}" });
    const file = join(site.dir, "assets", "app.js");
    utimesSync(file, new Date(0), new Date(0));
    const server = await startWebServer({
      router: { handle: async () => null },
      events: { subscribe: () => () => undefined },
      token: "read-ahead-test-token-0123456789abcdef",
      staticDir: site.dir,
    });
    cleanups.push(() => server.close());
    // Other bytes of the same size and mtime: only a copy taken at start-up can still say "first".
    writeFileSync(file, "xxxxx");
    utimesSync(file, new Date(0), new Date(0));
    const base = server.url.replace(/\/\?.*$/, "");
    expect(await (await fetch(`${base}/assets/app.js`)).text()).toBe("first");
  });

  it("serves a file from disk again once it changed (a rebuild)", async () => {
    const site = await siteWith({ "index.html": shell, "assets/app.js": "first", "assets/app.css": "a{}" });
    readShellAhead(site.dir);
    writeFileSync(join(site.dir, "assets", "app.js"), "second build");
    writeFileSync(join(site.dir, "index.html"), "<!doctype html><p>rebuilt</p>");
    expect(await site.get("/assets/app.js")).toBe("second build");
    expect(await site.get("/")).toBe("<!doctype html><p>rebuilt</p>");
  });

  it("still serves the page when a file it names is missing, and 404s that file", async () => {
    const site = await siteWith({ "index.html": shell });
    readShellAhead(site.dir);
    expect(await site.get("/")).toBe(shell);
    expect(await site.get("/assets/app.js")).toBe("Not found");
  });

  it("serves the shell with the page's security headers, and no opener policy that costs a process swap", async () => {
    const site = await siteWith({ "index.html": shell, "assets/app.js": "first" });
    for (const path of ["/", "/assets/app.js"]) {
      const { headers } = await fetch(site.base + path);
      expect(headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(headers.get("x-frame-options")).toBe("DENY");
      expect(headers.get("x-content-type-options")).toBe("nosniff");
      expect(headers.get("cross-origin-resource-policy")).toBe("same-origin");
      expect(headers.get("cross-origin-opener-policy")).toBeNull();
    }
  });
});
