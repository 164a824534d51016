/**
 * Web-mode access rules (docs/contract.md §11): the launch token (a bearer header, the `/rpc` token
 * subprotocol, or `?token=` on a page load), the Origin/Host checks that keep other sites out,
 * and the refusal of weak fixed tokens. No cookie: a cookie for 127.0.0.1 reaches every port.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { MIN_WEB_TOKEN_LENGTH, tokenFromSubprotocol } from "../host/rpc/web-token.js";

export type AccessVerdict = { ok: true } | { ok: false; status: 401 | 403; why: string };

export class WeakWebTokenError extends Error {
  override readonly name = "WeakWebTokenError";
  constructor(length: number) {
    super(
      `HERMES_DESKTOP_WEB_TOKEN is ${length} characters long; a launch token needs at least ` +
        `${MIN_WEB_TOKEN_LENGTH}. Set a longer random one (e.g. \`openssl rand -base64 32\`) or unset it for a fresh token each launch.`,
    );
  }
}

/** Throws WeakWebTokenError for a token too short to resist guessing. */
export function requireStrongToken(token: string): void {
  if (token.length < MIN_WEB_TOKEN_LENGTH) throw new WeakWebTokenError(token.length);
}

const sameToken = (given: string, token: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
};

export function bearerToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? null;
}

/** The token a browser page offers as a `/rpc` subprotocol. */
export function subprotocolToken(req: IncomingMessage): string | null {
  const header = req.headers["sec-websocket-protocol"];
  if (!header) return null;
  for (const protocol of header.split(",")) {
    const token = tokenFromSubprotocol(protocol.trim());
    if (token !== null) return token;
  }
  return null;
}

export interface AccessRules {
  token: string;
  /** Filled in once the server knows its port. */
  port: () => number;
}

/** Hosts the app answers to; anything else is a DNS-rebinding attempt. */
const allowedHosts = (port: number) => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
const allowedOrigins = (port: number) => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

export function checkOrigin(req: IncomingMessage, rules: AccessRules): AccessVerdict {
  const port = rules.port();
  const host = req.headers.host;
  if (!host || !allowedHosts(port).has(host.toLowerCase())) {
    return { ok: false, status: 403, why: "Host header is not this app's" };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedOrigins(port).has(origin)) {
    return { ok: false, status: 403, why: "Origin is not this app's" };
  }
  return { ok: true };
}

/**
 * Plugin page files (docs/contract.md §8): this app's Host only; the Origin may also be "null", the opaque
 * origin of a sandboxed page loading its own module scripts.
 */
export function checkPageRequest(req: IncomingMessage, rules: AccessRules): AccessVerdict {
  if (req.headers.origin === "null") {
    const host = req.headers.host;
    return host && allowedHosts(rules.port()).has(host.toLowerCase())
      ? { ok: true }
      : { ok: false, status: 403, why: "Host header is not this app's" };
  }
  return checkOrigin(req, rules);
}

export function checkToken(given: string | null, rules: AccessRules): AccessVerdict {
  if (given && sameToken(given, rules.token)) return { ok: true };
  return { ok: false, status: 401, why: given ? "wrong token" : "no token" };
}
