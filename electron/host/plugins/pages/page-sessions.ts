/**
 * Per-frame capabilities of plugin pages (docs/contract.md §8, §11). The app mints one token per
 * page frame (`plugins.pageSession`) for (plugin, session); with it that frame, and only it, may
 * open its page socket (web mode) and be served its page. A token is unguessable, bound to one
 * plugin and one session, opens sockets only for a short while after it was minted, and is revoked
 * when the app ends it (the frame went away) or when the app connection that minted it closes;
 * revoking closes the sockets opened with it. It is never the app's web token and grants nothing
 * but `plugin.<own id>.<method>` and that plugin's events for that session.
 */
import { randomBytes } from "node:crypto";
import { systemClock, type Clock } from "../../clock.js";

/** How long after minting a token may open a page socket (a frame loads well within this). */
export const PAGE_TOKEN_OPEN_WINDOW_MS = 60_000;
/** Live tokens one app connection may hold; past this the oldest is revoked (a frame left behind). */
export const MAX_PAGE_TOKENS_PER_CONNECTION = 64;

/** What a page frame may do, as the host stamps it; never what the page claims. */
export interface PageScope {
  readonly pluginId: string;
  readonly sessionId: string | null;
  /** Calls `fn` once when the token is revoked (at once when it already is); returns the unsubscriber. */
  onRevoked(fn: () => void): () => void;
}

export type PageClaim =
  | { ok: true; scope: PageScope }
  | { ok: false; why: "unknown token" | "expired token" | "token of another plugin" };

interface PageToken extends PageScope {
  readonly owner: string;
  readonly mintedAt: number;
  revoked: boolean;
  readonly revokeListeners: Set<() => void>;
}

/** Tokens are 32 random bytes, base64url: unguessable, and valid in a URL and a subprotocol. */
const PAGE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export class PageSessions {
  private readonly tokens = new Map<string, PageToken>();

  constructor(private readonly clock: Clock = systemClock) {}

  /** A new token for a frame of `owner` (an app connection) showing `pluginId`'s page with `sessionId`. */
  mint(owner: string, pluginId: string, sessionId: string | null): { token: string; expiresAt: number } {
    const owned = [...this.tokens].filter(([, t]) => t.owner === owner);
    for (const [token] of owned.slice(0, Math.max(0, owned.length - MAX_PAGE_TOKENS_PER_CONNECTION + 1))) {
      this.end(token);
    }
    const token = randomBytes(32).toString("base64url");
    const revokeListeners = new Set<() => void>();
    const record: PageToken = {
      pluginId,
      sessionId,
      owner,
      mintedAt: this.clock.now(),
      revoked: false,
      revokeListeners,
      onRevoked(fn) {
        if (record.revoked) {
          fn();
          return () => undefined;
        }
        revokeListeners.add(fn);
        return () => revokeListeners.delete(fn);
      },
    };
    this.tokens.set(token, record);
    return { token, expiresAt: record.mintedAt + PAGE_TOKEN_OPEN_WINDOW_MS };
  }

  /** Whether a page of `pluginId` may open a socket with `token` now (the socket path names the plugin). */
  claim(token: string | null, pluginId: string): PageClaim {
    const record = token && PAGE_TOKEN_PATTERN.test(token) ? this.tokens.get(token) : undefined;
    if (!record) return { ok: false, why: "unknown token" };
    if (record.pluginId !== pluginId) return { ok: false, why: "token of another plugin" };
    if (this.clock.now() - record.mintedAt > PAGE_TOKEN_OPEN_WINDOW_MS)
      return { ok: false, why: "expired token" };
    return { ok: true, scope: record };
  }

  /**
   * Whether a page of `pluginId` may be served carrying `token`: no token, or a live one of this
   * plugin. A page of another plugin opened with this frame's token is refused, so a frame that
   * navigates to another plugin's page never runs it with its own scope.
   */
  servesWith(token: string | null, pluginId: string): boolean {
    if (token === null) return true;
    const record = PAGE_TOKEN_PATTERN.test(token) ? this.tokens.get(token) : undefined;
    return record !== undefined && record.pluginId === pluginId;
  }

  /** Revokes one token (its frame went away); only its owner may. Returns whether one was revoked. */
  end(token: string, owner?: string): boolean {
    const record = this.tokens.get(token);
    if (!record || (owner !== undefined && record.owner !== owner)) return false;
    this.tokens.delete(token);
    record.revoked = true;
    for (const fn of [...record.revokeListeners]) {
      try {
        fn();
      } catch {
        // One socket failing to close must not keep the others open.
      }
    }
    record.revokeListeners.clear();
    return true;
  }

  /** Revokes every token an app connection minted (it closed: its frames are gone). */
  endConnection(owner: string): void {
    for (const [token, record] of [...this.tokens]) if (record.owner === owner) this.end(token);
  }
}
