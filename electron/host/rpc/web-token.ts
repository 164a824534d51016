/**
 * How a web-mode page hands the launch token to the `/rpc` WebSocket (docs/contract.md §11). A browser cannot
 * set headers on a WebSocket and no cookie may carry the token (browsers send cookies to every
 * port of 127.0.0.1), so the page offers two subprotocols: `hermes.rpc`, which the server picks,
 * and `hermes.token.<hex of the token>`, which it reads and never echoes. Headers stay out of
 * URLs, history and access logs; hex keeps any token a valid protocol name.
 */
export const RPC_SUBPROTOCOL = "hermes.rpc";
export const TOKEN_SUBPROTOCOL_PREFIX = "hermes.token.";
/** The shortest launch token accepted (`HERMES_DESKTOP_WEB_TOKEN` included). */
export const MIN_WEB_TOKEN_LENGTH = 32;

export function tokenSubprotocol(token: string): string {
  const bytes = new TextEncoder().encode(token);
  return TOKEN_SUBPROTOCOL_PREFIX + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The token a `hermes.token.<hex>` protocol carries, or null when it is not one. */
export function tokenFromSubprotocol(protocol: string): string | null {
  if (!protocol.startsWith(TOKEN_SUBPROTOCOL_PREFIX)) return null;
  const hex = protocol.slice(TOKEN_SUBPROTOCOL_PREFIX.length);
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-f]+$/.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return new TextDecoder().decode(bytes);
}
