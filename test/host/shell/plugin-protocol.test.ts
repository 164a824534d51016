// The desktop's hermes-plugin:// scheme (docs/contract.md §8), run against a recording stand-in for Electron's
// `protocol` (the binary can't run here): the handler serves a loaded plugin's page files with the
// sandboxing CSP, framable only by the app's origin, and refuses everything else.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { PageSite } from "../../../electron/host/plugins/pages/page-site.js";
import { PageSessions } from "../../../electron/host/plugins/pages/page-sessions.js";
import { tempHome } from "../support/temp-home.js";

type Handler = (request: Request) => Promise<Response>;
const handlers = new Map<string, Handler>();

vi.mock("electron", () => ({
  protocol: { handle: (scheme: string, handler: Handler) => handlers.set(scheme, handler) },
}));

let temp: { dir: string; cleanup(): void };
let site: PageSite;

beforeAll(() => {
  temp = tempHome("hermes-protocol-");
  const root = path.join(temp.dir, "charts");
  fs.mkdirSync(path.join(root, "page"), { recursive: true });
  fs.writeFileSync(path.join(root, "index.js"), "export function register() {}");
  fs.writeFileSync(path.join(root, "page", "index.html"), "<html><head></head><body>hi</body></html>");
  site = { root, dirs: [path.join(root, "page")] };
});
afterAll(() => temp.cleanup());

describe("hermes-plugin://", () => {
  it("is a standard, secure scheme and nothing more", async () => {
    const { pluginPageSchemePrivileges } = await import("../../../electron/plugin-protocol.js");
    expect(pluginPageSchemePrivileges).toEqual({
      scheme: "hermes-plugin",
      privileges: { standard: true, secure: true },
    });
  });

  it("serves a loaded plugin's page with the bridge and the sandboxing CSP; refuses the rest", async () => {
    const { servePluginPages } = await import("../../../electron/plugin-protocol.js");
    const sessions = new PageSessions();
    const own = sessions.mint("window:1", "charts", "s").token;
    const others = sessions.mint("window:1", "tables", "s").token;
    servePluginPages(
      (id) => (id === "charts" ? site : null),
      (token, id) => sessions.servesWith(token, id),
      "app://hermes",
    );
    const handle = handlers.get("hermes-plugin")!;

    const page = await handle(new Request("hermes-plugin://charts/page/index.html?hermesSession=s"));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<head><script src="/__hermes/bridge.js"></script></head>');
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src hermes-plugin://charts/");
    expect(csp).toContain("frame-ancestors app://hermes");
    expect(csp).toContain("sandbox allow-scripts");
    expect(csp).toContain("connect-src 'none'");

    // With its own frame's token it is served; with another plugin's page token it is not.
    expect(
      (await handle(new Request(`hermes-plugin://charts/page/index.html?hermesToken=${own}`))).status,
    ).toBe(200);
    const foreign = await handle(new Request(`hermes-plugin://charts/page/index.html?hermesToken=${others}`));
    expect(foreign.status).toBe(403);
    sessions.end(own);
    expect(
      (await handle(new Request(`hermes-plugin://charts/page/index.html?hermesToken=${own}`))).status,
    ).toBe(403);

    const bridge = await handle(new Request("hermes-plugin://charts/__hermes/bridge.js"));
    expect(await bridge.text()).toContain("hermesPlugin");
    for (const url of [
      "hermes-plugin://charts/index.js",
      "hermes-plugin://charts/page/%2e%2e/index.js",
      "hermes-plugin://other/page/index.html",
      "hermes-plugin://BAD_ID/page/index.html",
    ]) {
      expect((await handle(new Request(url))).status, url).toBe(404);
    }
  });
});
