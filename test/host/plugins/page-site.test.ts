/**
 * Plugin page files (docs/contract.md §8) as both transports serve them: only the declared pages' folders, no
 * dotfiles, `..` or symlinks out, the bridge injected first in the head, and a CSP that sandboxes
 * the document, allows only the plugin's own folder and no connections. Plus the contract's
 * page rules: which method a page may call, and the frame source of a page URL.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { injectBridge, pageBridgeScript } from "../../../electron/host/plugins/pages/page-bridge-script.js";
import { servePluginPage, type PageSite } from "../../../electron/host/plugins/pages/page-site.js";
import { pageFrameSrc, pageMethodFor, readPluginEvent } from "../../../electron/host/rpc/plugin-names.js";
import { tempHome } from "../support/temp-home.js";

let temp: { dir: string; cleanup(): void };
let site: PageSite;
const options = {
  base: "/plugin-pages/charts/",
  selfOrigin: "http://127.0.0.1:4000",
  frameAncestors: ["http://127.0.0.1:4000", "http://localhost:4000"],
  pluginId: "charts",
  socketUrl: null,
  tokenFits: true,
};

beforeAll(() => {
  temp = tempHome("hermes-page-site-");
  const root = path.join(temp.dir, "charts");
  fs.mkdirSync(path.join(root, "page", "img"), { recursive: true });
  fs.writeFileSync(path.join(root, "index.js"), "export function register() {}");
  fs.writeFileSync(
    path.join(root, "page", "index.html"),
    "<!doctype html><html><head><title>x</title></head><body></body></html>",
  );
  fs.writeFileSync(path.join(root, "page", "app.js"), "console.log(1)");
  fs.writeFileSync(path.join(root, "page", ".env"), "SECRET=1");
  fs.writeFileSync(path.join(root, "page", "img", "dot.svg"), "<svg/>");
  fs.symlinkSync(path.join(root, "index.js"), path.join(root, "page", "link.js"));
  fs.writeFileSync(path.join(temp.dir, "outside.txt"), "outside");
  site = { root, dirs: [path.join(root, "page")] };
});
afterAll(() => temp.cleanup());

describe("servePluginPage", () => {
  it("serves the page's HTML with the bridge first in its head and a sandboxing CSP", async () => {
    const answer = await servePluginPage(site, "page/index.html", options);
    expect(answer.status).toBe(200);
    expect(answer.headers["Content-Type"]).toBe("text/html; charset=utf-8");
    expect(String(answer.body)).toContain(
      '<head><script src="/plugin-pages/charts/__hermes/bridge.js"></script><title>',
    );
    const csp = answer.headers["Content-Security-Policy"]!;
    for (const directive of [
      "default-src 'none'",
      "script-src http://127.0.0.1:4000/plugin-pages/charts/",
      "connect-src 'none'",
      "form-action 'none'",
      "frame-ancestors http://127.0.0.1:4000 http://localhost:4000",
      "sandbox allow-scripts",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain("allow-same-origin");
    expect(answer.headers["Cache-Control"]).toBe("no-store");
  });

  it("serves other files of the page folders with their types, and the bridge script", async () => {
    expect((await servePluginPage(site, "page/app.js", options)).headers["Content-Type"]).toContain(
      "javascript",
    );
    expect((await servePluginPage(site, "page/img/dot.svg", options)).headers["Content-Type"]).toBe(
      "image/svg+xml",
    );
    const bridge = await servePluginPage(site, "__hermes/bridge.js", options);
    expect(bridge.status).toBe(200);
    expect(bridge.body).toBe(pageBridgeScript({ pluginId: "charts", socketUrl: null }));
  });

  it("allows the page socket as its only connection, and refuses a page opened with another plugin's token", async () => {
    const socketUrl = "ws://127.0.0.1:4000/plugin-pages/charts/__hermes/socket";
    const withSocket = await servePluginPage(site, "page/index.html", { ...options, socketUrl });
    expect(withSocket.headers["Content-Security-Policy"]).toContain(`connect-src ${socketUrl};`);
    const bridge = await servePluginPage(site, "__hermes/bridge.js", { ...options, socketUrl });
    expect(String(bridge.body)).toContain(JSON.stringify({ pluginId: "charts", socketUrl }));
    const refused = await servePluginPage(site, "page/index.html", { ...options, tokenFits: false });
    expect(refused.status).toBe(403);
    expect(String(refused.body)).toContain("another plugin's page token");
  });

  it("refuses what is not a page file: backend code, dotfiles, .., encoded .., symlinks out, bad escapes", async () => {
    for (const rel of [
      "index.js",
      "plugin.yaml",
      "page/.env",
      "page/../index.js",
      "page/%2e%2e/index.js",
      "page/..%2Findex.js",
      "page/..%5Cindex.js",
      "page/%2e%2e/%2e%2e/outside.txt",
      "page/link.js",
      "page/%E0%A4%A",
      "page/nope.js",
      "page/img",
      "page//app.js",
      "page/app.js%00.png",
    ]) {
      const answer = await servePluginPage(site, rel, options);
      expect(answer.status, rel).toBe(404);
      expect(answer.headers["Content-Security-Policy"]).toContain("sandbox allow-scripts");
    }
    expect((await servePluginPage(null, "page/index.html", options)).status).toBe(404);
  });
});

describe("injectBridge", () => {
  it("goes after <head>, else after the doctype, else first", () => {
    expect(injectBridge('<html><head lang="x"><meta></head></html>', "/b.js")).toBe(
      '<html><head lang="x"><script src="/b.js"></script><meta></head></html>',
    );
    expect(injectBridge("<!DOCTYPE html><p>hi</p>", "/b.js")).toBe(
      '<!DOCTYPE html><script src="/b.js"></script><p>hi</p>',
    );
    expect(injectBridge("<p>hi</p>", "/b.js")).toBe('<script src="/b.js"></script><p>hi</p>');
  });
});

describe("the page rules of the contract", () => {
  it("a page calls only its own plugin's methods", () => {
    expect(pageMethodFor("charts", "chart.suggest")).toEqual({
      ok: true,
      method: "plugin.charts.chart.suggest",
    });
    expect(pageMethodFor("charts", "plugin.charts.chart.suggest")).toEqual({
      ok: true,
      method: "plugin.charts.chart.suggest",
    });
    expect(pageMethodFor("charts", "plugin.other.steal")).toMatchObject({
      ok: false,
      reason: "plugin_forbidden",
    });
    for (const bad of ["a..b", ".lead", "../x", "", 42, "plugins.setEnabled x"]) {
      expect(pageMethodFor("charts", bad), String(bad)).toMatchObject({
        ok: false,
        reason: "method_not_found",
      });
    }
  });

  it("maps a page URL to its frame source in each mode, with the session and the parent's origin", () => {
    const how = { sessionId: "s-1", parentOrigin: "http://127.0.0.1:4000", token: "tok" };
    expect(pageFrameSrc("hermes-plugin://charts/page/index.html", { ...how, web: true })).toBe(
      "/plugin-pages/charts/page/index.html?hermesParent=http%3A%2F%2F127.0.0.1%3A4000&hermesSession=s-1&hermesToken=tok",
    );
    expect(pageFrameSrc("hermes-plugin://charts/page/index.html", { ...how, web: false })).toBe(
      "hermes-plugin://charts/page/index.html?hermesParent=http%3A%2F%2F127.0.0.1%3A4000&hermesSession=s-1&hermesToken=tok",
    );
    expect(pageFrameSrc("https://evil.example/x.html", { ...how, web: true })).toBeNull();
    expect(pageFrameSrc("not a url", { ...how, web: true })).toBeNull();
  });

  it("reads plugin events and nothing else", () => {
    expect(
      readPluginEvent({ type: "plugin.charts.chart.written", session_id: "s", payload: { job: "j" } }),
    ).toEqual({
      pluginId: "charts",
      event: "chart.written",
      sessionId: "s",
      payload: { job: "j" },
    });
    expect(readPluginEvent({ type: "session.delta", session_id: "s", payload: {} })).toBeNull();
    expect(readPluginEvent({ type: "plugin.charts.x", session_id: null, payload: {} })).toBeNull();
    expect(readPluginEvent({ type: "plugin.charts.x", session_id: "s", payload: [1] })).toBeNull();
  });
});
