/**
 * Page tokens (docs/contract.md §8, §11): unguessable, bound to one plugin and session, open sockets
 * only within their window, served only with their own plugin's pages, ended only by the app
 * connection that minted them (or with it), and at most a bounded number per connection.
 */
import { describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../fixtures/manual-clock.js";
import {
  MAX_PAGE_TOKENS_PER_CONNECTION,
  PAGE_TOKEN_OPEN_WINDOW_MS,
  PageSessions,
} from "../../../electron/host/plugins/pages/page-sessions.js";

describe("PageSessions", () => {
  it("mints distinct random tokens bound to plugin and session, opening sockets only within the window", () => {
    const clock = new ManualClock();
    const sessions = new PageSessions(clock);
    const a = sessions.mint("web:1", "charts", "s-1");
    const b = sessions.mint("web:1", "charts", "s-1");
    expect(a.token).not.toBe(b.token);
    expect(a.expiresAt).toBe(clock.now() + PAGE_TOKEN_OPEN_WINDOW_MS);
    const claim = sessions.claim(a.token, "charts");
    expect(claim.ok && { pluginId: claim.scope.pluginId, sessionId: claim.scope.sessionId }).toEqual({
      pluginId: "charts",
      sessionId: "s-1",
    });
    expect(sessions.claim(a.token, "tables")).toEqual({ ok: false, why: "token of another plugin" });
    expect(sessions.claim(null, "charts")).toEqual({ ok: false, why: "unknown token" });
    expect(sessions.claim(`${a.token}x`, "charts")).toEqual({ ok: false, why: "unknown token" });
    clock.advance(PAGE_TOKEN_OPEN_WINDOW_MS + 1);
    expect(sessions.claim(a.token, "charts")).toEqual({ ok: false, why: "expired token" });
    // Past its window it still serves its own page (a reload) and still refuses another plugin's.
    expect(sessions.servesWith(a.token, "charts")).toBe(true);
    expect(sessions.servesWith(a.token, "tables")).toBe(false);
    expect(sessions.servesWith(null, "tables")).toBe(true);
    expect(sessions.servesWith("forged", "charts")).toBe(false);
  });

  it("ends a token only for its owner, telling its sockets once; a connection's end ends all of its tokens", () => {
    const sessions = new PageSessions();
    const { token } = sessions.mint("web:1", "charts", null);
    const claim = sessions.claim(token, "charts");
    if (!claim.ok) throw new Error("claim refused");
    const closed = vi.fn();
    claim.scope.onRevoked(closed);
    expect(sessions.end(token, "web:2")).toBe(false);
    expect(closed).not.toHaveBeenCalled();
    expect(sessions.end(token, "web:1")).toBe(true);
    expect(sessions.end(token, "web:1")).toBe(false);
    expect(closed).toHaveBeenCalledTimes(1);
    expect(sessions.servesWith(token, "charts")).toBe(false);
    const late = vi.fn();
    claim.scope.onRevoked(late);
    expect(late).toHaveBeenCalledTimes(1);

    const kept = sessions.mint("web:2", "charts", null).token;
    const gone = [sessions.mint("web:3", "charts", null).token, sessions.mint("web:3", "tables", null).token];
    sessions.endConnection("web:3");
    for (const t of gone) expect(sessions.claim(t, "charts").ok).toBe(false);
    expect(sessions.claim(kept, "charts").ok).toBe(true);
  });

  it("keeps at most MAX_PAGE_TOKENS_PER_CONNECTION per connection, revoking the oldest", () => {
    const sessions = new PageSessions();
    const tokens = Array.from(
      { length: MAX_PAGE_TOKENS_PER_CONNECTION + 1 },
      () => sessions.mint("web:1", "charts", null).token,
    );
    expect(sessions.claim(tokens[0]!, "charts").ok).toBe(false);
    for (const t of tokens.slice(1)) expect(sessions.claim(t, "charts").ok).toBe(true);
  });
});
