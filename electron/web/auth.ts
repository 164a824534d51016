/**
 * Web-mode access rules (SPEC §11): the launch token (bearer header, the cookie it sets, or
 * `?token=` on the first page load) and the Origin/Host checks that keep other sites out.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export const tokenCookie = "hermes_token";

export type AccessVerdict = { ok: true } | { ok: false; status: 401 | 403; why: string };

const sameToken = (given: string, token: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
};

export function cookieToken(req: IncomingMessage): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === tokenCookie) return decodeURIComponent(rest.join("="));
  }
  return null;
}

export function bearerToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? null;
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

export function checkToken(
  req: IncomingMessage,
  rules: AccessRules,
  queryToken: string | null,
): AccessVerdict {
  const given = bearerToken(req) ?? cookieToken(req) ?? queryToken;
  if (given && sameToken(given, rules.token)) return { ok: true };
  return { ok: false, status: 401, why: given ? "wrong token" : "no token" };
}
