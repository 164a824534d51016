/**
 * The desktop's plugin pages (docs/contract.md §8): `hermes-plugin://<id>/<path>`, a standard scheme, so each
 * plugin's pages have an origin of their own (and the frame's sandbox makes it opaque besides).
 * Thin: what is served, and with which CSP, is the host's `servePluginPage`, shared with web mode.
 * The desktop has no page socket: its pages talk through the app window (postMessage).
 */
import { protocol } from "electron";
import { servePluginPage, type PageSite } from "./host/plugins/pages/page-site.js";
import { PAGE_TOKEN_PARAM } from "./host/plugins/pages/page-bridge-script.js";
import { PLUGIN_PAGE_SCHEME, pluginIdPattern } from "./host/rpc/plugin-names.js";

/**
 * For main.ts's one `registerSchemesAsPrivileged` call (Electron allows only one): standard and
 * secure (real origins, CSP), and no more — no fetch API, no service workers, no CORS bypass.
 */
export const pluginPageSchemePrivileges = {
  scheme: PLUGIN_PAGE_SCHEME,
  privileges: { standard: true, secure: true },
} as const;

export function servePluginPages(
  pageSite: (pluginId: string) => PageSite | null,
  /** Whether a page of the plugin may be served with this page token (`PageSessions.servesWith`). */
  servesWith: (token: string, pluginId: string) => boolean,
  appOrigin: string,
): void {
  protocol.handle(PLUGIN_PAGE_SCHEME, async (request) => {
    const url = new URL(request.url);
    const pluginId = url.host;
    const site = pluginIdPattern.test(pluginId) ? pageSite(pluginId) : null;
    const token = url.searchParams.get(PAGE_TOKEN_PARAM);
    const answer = await servePluginPage(site, url.pathname.replace(/^\/+/, ""), {
      base: "/",
      selfOrigin: `${PLUGIN_PAGE_SCHEME}://${pluginId}`,
      frameAncestors: [appOrigin],
      pluginId,
      socketUrl: null,
      tokenFits: token === null || servesWith(token, pluginId),
    });
    const body = typeof answer.body === "string" ? answer.body : new Uint8Array(answer.body);
    return new Response(body, { status: answer.status, headers: answer.headers });
  });
}
