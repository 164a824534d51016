/** Serves the built renderer with the headers a desktop-grade page needs (CSP, no sniffing). */
import { createReadStream, readFileSync, statSync } from "node:fs";
import { stat } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { extname, join, normalize, sep } from "node:path";
import { contentTypeFor } from "../host/mime-types.js";

export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * No Cross-Origin-Opener-Policy: in Chromium it makes the first navigation of a new tab swap its
 * renderer process for a fresh one (~150–200 ms before the first paint, measured), and this page
 * needs no cross-origin isolation (what the header is for, with COEP: SharedArrayBuffer). What it
 * would add — cutting a window that opened this page off from it — is covered here: nothing works
 * without the launch token, which another window cannot read; the page cannot be framed; and the
 * only message listener (plugin pages) answers its own sandboxed frame alone.
 */
export function securityHeaders(port: number): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(port),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
    "X-Frame-Options": "DENY",
  };
}

/** Resolves a URL path inside `root`, or null when it would escape it. */
function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const candidate = normalize(join(root, decoded));
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep)
    ? candidate
    : null;
}

/** The page's first files in memory, each with the size and mtime it was read at. */
const readAhead = new Map<string, { body: Buffer; size: number; mtimeMs: number }>();

/**
 * Reads the shell (index.html) and the files it loads first into memory, before the server
 * listens, so the page's first load waits on no disk read; a file that changes after (a rebuild)
 * is served from disk again. Synchronous on purpose: a few hundred KB from the page cache take
 * well under a millisecond, and read in the background they raced the browser's first requests
 * (which then queued behind them on the thread pool).
 */
export function readShellAhead(root: string): void {
  const remember = (file: string): Buffer => {
    // stat first: a change after it gives the file a newer mtime than the one remembered.
    const info = statSync(file);
    const body = readFileSync(file);
    if (info.size === body.length) readAhead.set(file, { body, size: info.size, mtimeMs: info.mtimeMs });
    return body;
  };
  try {
    const shell = remember(join(root, "index.html")).toString("utf8");
    const firstFiles = [...shell.matchAll(/(?:src|href)="\.\/([^"?#]+)"/g)]
      .map((match) => resolveInside(root, `/${match[1]}`))
      .filter((file): file is string => file !== null);
    for (const file of firstFiles) {
      try {
        remember(file);
      } catch {
        // Missing or unreadable: its request goes to the disk and gets the answer from there.
      }
    }
  } catch {
    // Not built yet, or unreadable: every request then goes to the disk and says so.
  }
}

/**
 * The copy read ahead, if the file on disk is still the one read. The check is a stat on this
 * thread (microseconds, from the inode cache), not one through libuv's thread pool: on a loaded
 * machine each trip there waited tens of ms for a CPU (measured: 20–110 ms per first-load file),
 * while the browser waited on the very files this map exists to serve at once.
 */
function readAheadCopy(file: string): Buffer | null {
  const ahead = readAhead.get(file);
  if (!ahead) return null;
  const info = statSync(file, { throwIfNoEntry: false });
  if (info?.isFile() && info.size === ahead.size && info.mtimeMs === ahead.mtimeMs) return ahead.body;
  readAhead.delete(file);
  return null;
}

const cacheControlFor = (file: string): string =>
  file.endsWith("index.html") ? "no-store" : "public, max-age=31536000, immutable";

export async function serveStatic(
  root: string,
  urlPath: string,
  res: ServerResponse,
  port: number,
): Promise<void> {
  const headers = securityHeaders(port);
  const target = resolveInside(root, urlPath === "/" ? "/index.html" : urlPath);
  const copy = target ? readAheadCopy(target) : null;
  if (target && copy) {
    res.writeHead(200, {
      ...headers,
      "Content-Type": contentTypeFor(extname(target)),
      "Content-Length": copy.length,
      "Cache-Control": cacheControlFor(target),
    });
    res.end(copy);
    return;
  }
  let file = target;
  let info = file ? await stat(file).catch(() => null) : null;
  if (!info?.isFile()) {
    // Client-side routes fall back to the app shell; asset-looking paths get a real 404.
    if (extname(urlPath)) {
      res.writeHead(404, { ...headers, "Content-Type": "text/plain; charset=utf-8" }).end("Not found");
      return;
    }
    file = join(root, "index.html");
    info = await stat(file).catch(() => null);
    if (!info?.isFile()) {
      res
        .writeHead(503, { ...headers, "Content-Type": "text/plain; charset=utf-8" })
        .end("The web UI is not built yet: run `npm run build`.");
      return;
    }
  }
  res.writeHead(200, {
    ...headers,
    "Content-Type": contentTypeFor(extname(file!)),
    "Content-Length": info.size,
    "Cache-Control": cacheControlFor(file!),
  });
  const shell = readAheadCopy(file!);
  if (shell && shell.length === info.size) res.end(shell);
  else createReadStream(file!).pipe(res);
}
