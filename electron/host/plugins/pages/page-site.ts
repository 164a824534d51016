/**
 * Serving a plugin's pages (docs/contract.md §8), for both transports: web mode's `/plugin-pages/<id>/…` and
 * the desktop's `hermes-plugin://<id>/…`. Only files under the folders of the plugin's declared
 * pages are served (no dotfiles, no `..`, no symlink out), HTML gets the bridge script, and every
 * answer carries a CSP that sandboxes the document (an opaque origin even when opened on its own:
 * no app storage, token or cookies), allows scripts, styles and images only from the plugin's own
 * folder, and no connection but its own page socket (web mode; none on the desktop): a page
 * reaches its backend only through `hermesPlugin`. A page asked for with another plugin's page
 * token is refused, so a frame navigated to another plugin's page never runs it with its scope.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { injectBridge, PAGE_BRIDGE_PATH, pageBridgeScript } from "./page-bridge-script.js";
import { contentTypeFor } from "../../mime-types.js";

export interface PageSite {
  /** The plugin's folder. */
  root: string;
  /** Folders (inside root) holding the declared pages' entries; only these are served. */
  dirs: string[];
}

export interface PageServeOptions {
  /** This plugin's URL prefix: "/plugin-pages/<id>/" (web) or "/" (desktop). */
  base: string;
  /** The origin the page is served from (`http://127.0.0.1:<port>`, `hermes-plugin://<id>`). */
  selfOrigin: string;
  /** The app's origins, the only ones that may frame the page. */
  frameAncestors: string[];
  /** The plugin whose pages these are (its bridge is bound to it). */
  pluginId: string;
  /** The page socket's URL (web mode), the one connection the page may open; null: none. */
  socketUrl: string | null;
  /** False when the request carries a page token that is not this plugin's (or no longer live). */
  tokenFits: boolean;
}

export interface PageAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

/** A page file larger than this is refused (pages are small UIs, not file shares). */
export const MAX_PAGE_FILE_BYTES = 10 * 1024 * 1024;

export function pageContentSecurityPolicy(options: PageServeOptions): string {
  const own = `${options.selfOrigin}${options.base}`;
  return [
    "default-src 'none'",
    `script-src ${own}`,
    `style-src ${own} 'unsafe-inline'`,
    `img-src ${own} data: blob:`,
    `font-src ${own}`,
    `connect-src ${options.socketUrl ?? "'none'"}`,
    "form-action 'none'",
    "base-uri 'none'",
    `frame-ancestors ${options.frameAncestors.join(" ")}`,
    // An opaque origin, whoever loads it: no access to the app's origin, storage or cookies.
    "sandbox allow-scripts",
  ].join("; ");
}

function pageHeaders(options: PageServeOptions, type: string): Record<string, string> {
  return {
    "Content-Type": type,
    "Content-Security-Policy": pageContentSecurityPolicy(options),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    // The page's own document has an opaque origin; its scripts and images must still load.
    "Cross-Origin-Resource-Policy": "cross-origin",
    "Access-Control-Allow-Origin": "*",
  };
}

const notFound = (options: PageServeOptions, why: string): PageAnswer => ({
  status: 404,
  headers: pageHeaders(options, "text/plain; charset=utf-8"),
  body: `Not found: ${why}`,
});

const inside = (dir: string, file: string): boolean =>
  file.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);

/** `relPath` is the URL path after the base, still percent-encoded. */
export async function servePluginPage(
  site: PageSite | null,
  relPath: string,
  options: PageServeOptions,
): Promise<PageAnswer> {
  if (!site) return notFound(options, "no enabled plugin has this page.");
  if (!options.tokenFits) {
    return {
      status: 403,
      headers: pageHeaders(options, "text/plain; charset=utf-8"),
      body: "Forbidden: this page was opened with another plugin's page token; open it from the app's navigation.",
    };
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(relPath);
  } catch {
    return notFound(options, "the path is not valid.");
  }
  if (decoded === PAGE_BRIDGE_PATH) {
    return {
      status: 200,
      headers: pageHeaders(options, contentTypeFor(".js")),
      body: pageBridgeScript({ pluginId: options.pluginId, socketUrl: options.socketUrl }),
    };
  }
  const segments = decoded.split(/[/\\]/);
  if (decoded.includes("\0") || segments.some((s) => s === "" || s.startsWith("."))) {
    return notFound(options, "the path is not a page file.");
  }
  const file = path.resolve(site.root, ...segments);
  const dir = site.dirs.find((d) => inside(path.resolve(d), file));
  if (!dir) return notFound(options, "only the files of the plugin's pages are served.");
  let real: string;
  let realDir: string;
  try {
    [real, realDir] = await Promise.all([fs.realpath(file), fs.realpath(dir)]);
  } catch {
    return notFound(options, "no such file.");
  }
  if (!inside(realDir, real)) return notFound(options, "the file links outside the plugin's pages.");
  const info = await fs.stat(real).catch(() => null);
  if (!info?.isFile()) return notFound(options, "no such file.");
  if (info.size > MAX_PAGE_FILE_BYTES) return notFound(options, "the file is too large to serve.");
  const type = contentTypeFor(path.extname(real));
  const content = await fs.readFile(real);
  const body = type.startsWith("text/html")
    ? injectBridge(content.toString("utf8"), `${options.base}${PAGE_BRIDGE_PATH}`)
    : content;
  return { status: 200, headers: pageHeaders(options, type), body };
}
