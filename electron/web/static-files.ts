/** Serves the built renderer with the headers a desktop-grade page needs (CSP, no sniffing). */
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
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

export function securityHeaders(port: number): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(port),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
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
 * Reads the shell (index.html) and the files it loads first into memory, so the page's first load
 * waits on no disk reads; a file that changes after (a rebuild) is served from disk again.
 */
export async function readShellAhead(root: string): Promise<void> {
  const remember = async (file: string) => {
    // stat first: a change after it gives the file a newer mtime than the one remembered.
    const info = await stat(file);
    const body = await readFile(file);
    if (info.size === body.length) readAhead.set(file, { body, size: info.size, mtimeMs: info.mtimeMs });
    return body;
  };
  try {
    const shell = (await remember(join(root, "index.html"))).toString("utf8");
    const firstFiles = [...shell.matchAll(/(?:src|href)="\.\/([^"?#]+)"/g)]
      .map((match) => resolveInside(root, `/${match[1]}`))
      .filter((file): file is string => file !== null);
    await Promise.all(firstFiles.map((file) => remember(file).catch(() => undefined)));
  } catch {
    // Not built yet, or unreadable: every request then goes to the disk and says so.
  }
}

export async function serveStatic(
  root: string,
  urlPath: string,
  res: ServerResponse,
  port: number,
): Promise<void> {
  const headers = securityHeaders(port);
  const target = resolveInside(root, urlPath === "/" ? "/index.html" : urlPath);
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
  const type = contentTypeFor(extname(file!));
  const cache = file!.endsWith("index.html") ? "no-store" : "public, max-age=31536000, immutable";
  res.writeHead(200, {
    ...headers,
    "Content-Type": type,
    "Content-Length": info.size,
    "Cache-Control": cache,
  });
  const ahead = readAhead.get(file!);
  if (ahead && ahead.size === info.size && ahead.mtimeMs === info.mtimeMs) res.end(ahead.body);
  else createReadStream(file!).pipe(res);
}
