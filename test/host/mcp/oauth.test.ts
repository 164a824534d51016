/**
 * OAuth sign-in for HTTP MCP servers (docs/contract.md §13.1 `auth: oauth`) against a real
 * authorization server + MCP server built on the SDK's server-side auth helpers
 * (test/fixtures/mcp/oauth-server.mjs): discovery, dynamic client registration, PKCE, the
 * loopback redirect, tokens only in the keychain, refresh on expiry, and each way a sign-in fails.
 * The test plays the browser by fetching the authorization URL.
 */
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../support/temp-home.js";
import { startMcpRig, type McpRig } from "./support/mcp-rig.js";
import { playBrowser, startOAuthFixture, type OAuthFixture } from "./support/oauth-fixture.js";
import { freePort } from "./support/http-servers.js";

let rig: McpRig;
let fixture: OAuthFixture;
beforeAll(async () => {
  [rig, fixture] = await Promise.all([startMcpRig({ backoffStartMs: 100 }), startOAuthFixture()]);
}, 60_000);
afterAll(async () => {
  await rig?.dispose();
  await fixture?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const run = (name: string, args: unknown = {}, on: McpRig = rig) =>
  on.host.mcp.chatTools.run(
    {
      id: `c_${Math.random().toString(36).slice(2)}`,
      type: "function",
      function: { name, arguments: JSON.stringify(args) },
    },
    { sessionId: "s1", gatewaySessionKey: "test", signal: new AbortController().signal },
  );

const waitOAuth = (id: string, state: string, on: McpRig = rig) =>
  waitFor(
    async () => {
      const server = await on.server(id);
      return server?.oauth?.state === state ? server : null;
    },
    20_000,
    `MCP server ${id} to be ${state}`,
  );

/** The keychain entries of a server's sign-in, by part. */
async function stored(id: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const account of await rig.vault.listAccounts()) {
    const prefix = `mcp:${id}:oauth:`;
    if (!account.startsWith(prefix)) continue;
    out[account.slice(prefix.length)] = (await rig.vault.getKey("mcp", account.slice(4)))!;
  }
  return out;
}

/** Every place a token must never be: config.yaml, the logs, every event frame, mcp.list. */
async function expectNowhereButKeychain(tokens: string[]): Promise<void> {
  const logs = join(rig.home, "logs");
  const texts = [
    readFileSync(join(rig.home, "config.yaml"), "utf8"),
    JSON.stringify(rig.frames),
    JSON.stringify(await rig.ok("mcp.list")),
  ];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else texts.push(readFileSync(path, "utf8"));
    }
  };
  walk(logs);
  for (const token of tokens) for (const text of texts) expect(text).not.toContain(token);
}

describe("OAuth sign-in for an HTTP MCP server", () => {
  it("before sign-in: error '…: sign in', Needs sign-in, and no client registered behind the person's back", async () => {
    await rig.addServer("guarded", { url: fixture.mcpUrl, auth: "oauth", approval: "never" });
    const server = await rig.waitStatus("guarded", "error");
    expect(server.error).toBe(`HTTP 401 from ${fixture.mcpUrl}: sign in`);
    expect(server.oauth).toEqual({ state: "signed_out" });
    expect((await fixture.stats()).registrations).toBe(0);
    // No retry loop against a server that wants a sign-in.
    const restarts = server.restarts;
    await new Promise((r) => setTimeout(r, 500));
    expect((await rig.server("guarded")).restarts).toBe(restarts);
  });

  it("signs in: discovery, dynamic registration, PKCE, loopback redirect; tokens only in the keychain", async () => {
    await fixture.control({ accessTtl: 2 });
    const { authorizationUrl } = await rig.ok("mcp.signIn", { id: "guarded" });
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(fixture.origin);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(url.searchParams.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect((await rig.server("guarded")).oauth).toEqual({ state: "signing_in", authorizationUrl });

    const page = await playBrowser(authorizationUrl);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Signed in to the MCP server “guarded”");
    const server = await rig.waitStatus("guarded", "ready");
    expect(server.oauth).toEqual({ state: "signed_in" });
    expect((await run("mcp__guarded__whoami")).content).toMatch(/^signed in as client /);
    expect(await fixture.stats()).toMatchObject({ registrations: 1, codeGrants: 1 });

    const keychain = await stored("guarded");
    expect(Object.keys(keychain).sort()).toEqual(["access_token", "client", "refresh_token", "tokens"]);
    expect(keychain["access_token"]).toMatch(/^at_/);
    expect(JSON.parse(keychain["client"]!).client_id).toBeTruthy();
    await expectNowhereButKeychain([keychain["access_token"]!, keychain["refresh_token"]!]);
    // The redirect listener is gone once the sign-in ended.
    await expect(fetch(page.redirect)).rejects.toThrow();
  });

  it("an expired access token is refreshed before the next call: the server never refuses it first", async () => {
    const before = (await stored("guarded"))["access_token"];
    const meta = JSON.parse((await stored("guarded"))["tokens"]!);
    expect(meta.expires_at - meta.issued_at).toBe(2_000); // the expiry is kept with the tokens
    await sleep(2_200); // the fixture's 2 s token expires
    const stats = await fixture.stats();
    const result = await run("mcp__guarded__whoami");
    expect(result).toMatchObject({ status: "ok" });
    expect(result.content).toMatch(/^signed in as client /);
    const later = await fixture.stats();
    expect(later.refreshes).toBe(stats.refreshes + 1);
    expect(later.unauthorized).toBe(stats.unauthorized); // no 401 round trip
    const after = await stored("guarded");
    expect(after["access_token"]).not.toBe(before);
    expect((await rig.server("guarded")).oauth).toEqual({ state: "signed_in" });
    await expectNowhereButKeychain([after["access_token"]!, after["refresh_token"]!]);
  });

  it("a refresh that fails on the network: a clear error, still signed in, the next call renews", async () => {
    await fixture.control({ tokenDrop: true });
    await sleep(2_200);
    const stats = await fixture.stats();
    const failed = await run("mcp__guarded__whoami");
    expect(failed.status).toBe("error");
    expect(failed.content).toMatch(
      /the sign-in to MCP server 'guarded' expired and could not be renewed \(http:\/\/127\.0\.0\.1:\d+\/token: \w+\); the next call tries again/,
    );
    const afterFailure = await fixture.stats();
    // One attempt (fetch sends a POST once more when a reused socket drops before any answer).
    expect(afterFailure.dropped - stats.dropped).toBeGreaterThanOrEqual(1);
    expect(afterFailure.dropped - stats.dropped).toBeLessThanOrEqual(2);
    expect(afterFailure.unauthorized).toBe(stats.unauthorized);
    const server = await rig.server("guarded");
    expect(server.oauth).toEqual({ state: "signed_in" });
    expect(server.status).toBe("ready");
    expect((await stored("guarded"))["refresh_token"]).toBeTruthy();
    await sleep(500); // nothing retries behind the person's back
    expect((await fixture.stats()).dropped).toBe(afterFailure.dropped);

    await fixture.control({ tokenDrop: false });
    const result = await run("mcp__guarded__whoami");
    expect(result).toMatchObject({ status: "ok" });
    const later = await fixture.stats();
    expect(later.refreshes).toBe(stats.refreshes + 1);
    expect(later.unauthorized).toBe(stats.unauthorized);
  });

  it("a token the server refuses before its expiry: renewed after the 401; on the network failing, still signed in", async () => {
    await fixture.control({ accessTtl: 3600 });
    await sleep(2_200);
    expect((await run("mcp__guarded__whoami")).status).toBe("ok"); // renewed: an hour from now
    await fixture.control({ revokeAccess: true, tokenDrop: true });
    const failed = await run("mcp__guarded__whoami");
    expect(failed.status).toBe("error");
    expect(failed.content).toMatch(
      /the sign-in to MCP server 'guarded' could not be renewed \(the authorization server did not answer\); the next call tries again/,
    );
    expect((await rig.server("guarded")).oauth).toEqual({ state: "signed_in" });
    expect((await stored("guarded"))["refresh_token"]).toBeTruthy();

    await fixture.control({ tokenDrop: false });
    const stats = await fixture.stats();
    expect((await run("mcp__guarded__whoami")).status).toBe("ok");
    const later = await fixture.stats();
    expect(later.unauthorized).toBe(stats.unauthorized + 1); // the server said so; then renewed
    expect(later.refreshes).toBe(stats.refreshes + 1);
    // Back to 2 s tokens for what follows: the next renewal issues one.
    await fixture.control({ accessTtl: 2, revokeAccess: true });
    expect((await run("mcp__guarded__whoami")).status).toBe("ok");
  });

  it("a refused refresh ends at Needs sign-in: the call says so and the tokens are gone", async () => {
    await fixture.control({ refresh: "refuse" });
    await sleep(2_200);
    const refused = (await fixture.stats()).refused;
    const result = await run("mcp__guarded__whoami");
    expect((await fixture.stats()).refused).toBe(refused + 1);
    expect(result.status).toBe("error");
    expect(result.content).toMatch(/needs sign-in.*Settings → MCP/);
    const server = await waitOAuth("guarded", "signed_out");
    expect(server.status).toBe("error");
    expect(server.error).toMatch(/: sign in$/);
    const keychain = await stored("guarded");
    expect(keychain["access_token"]).toBeUndefined();
    expect(keychain["refresh_token"]).toBeUndefined();
    await fixture.control({ refresh: "allow", accessTtl: 3600 });
  });

  it("refused consent: the browser and the row both say why, nothing stored", async () => {
    await fixture.control({ consent: "deny" });
    const { authorizationUrl } = await rig.ok("mcp.signIn", { id: "guarded" });
    const page = await playBrowser(authorizationUrl);
    expect(page.status).toBe(400);
    expect(page.text).toContain("Sign-in failed");
    const server = await waitOAuth("guarded", "failed");
    expect(server.oauth.error).toBe(
      "the authorization server refused the sign-in (access_denied: The person declined to share their account)",
    );
    expect((await stored("guarded"))["access_token"]).toBeUndefined();
    await fixture.control({ consent: "allow" });
  });

  it("a redirect with another sign-in's state is not used (no code is exchanged)", async () => {
    const grants = (await fixture.stats()).codeGrants;
    const { authorizationUrl } = await rig.ok("mcp.signIn", { id: "guarded" });
    const page = await playBrowser(authorizationUrl, (redirect) =>
      redirect.searchParams.set("state", "forged-by-another-page"),
    );
    expect(page.status).toBe(400);
    const server = await waitOAuth("guarded", "failed");
    expect(server.oauth.error).toMatch(/state mismatch/);
    expect((await fixture.stats()).codeGrants).toBe(grants);
    expect((await stored("guarded"))["access_token"]).toBeUndefined();
  });

  it("the token endpoint answering 500: a failed sign-in naming it", async () => {
    await fixture.control({ tokenStatus: 500 });
    const { authorizationUrl } = await rig.ok("mcp.signIn", { id: "guarded" });
    await playBrowser(authorizationUrl);
    const server = await waitOAuth("guarded", "failed");
    expect(server.oauth.error).toMatch(/^exchanging the authorization code failed: .*HTTP 500/);
    expect(server.oauth.error).toContain("the token store is offline");
    await fixture.control({ tokenStatus: 200 });
  });

  it("desktop: the authorization URL opens in the system browser; Sign out forgets the tokens", async () => {
    const opened: string[] = [];
    const desktop = await startMcpRig({
      backoffStartMs: 100,
      openExternal: async (url) => {
        opened.push(url);
        void playBrowser(url);
      },
    });
    try {
      await desktop.addServer("work", { url: fixture.mcpUrl, auth: "oauth", approval: "never" });
      await desktop.waitStatus("work", "error");
      const { authorizationUrl } = await desktop.ok("mcp.signIn", { id: "work" });
      expect(opened).toEqual([authorizationUrl]);
      const ready = await desktop.waitStatus("work", "ready");
      expect(ready.oauth).toEqual({ state: "signed_in" });
      await desktop.ok("mcp.signOut", { id: "work" });
      const after = await desktop.waitStatus("work", "error");
      expect(after.oauth).toEqual({ state: "signed_out" });
      expect((await desktop.vault.listAccounts()).filter((a) => a.startsWith("mcp:work:oauth:"))).toEqual([]);
    } finally {
      await desktop.dispose();
    }
  });

  it("a sign-in the browser never answers times out: failed with the reason, the port closed, Sign in again works", async () => {
    const short = await startMcpRig({ backoffStartMs: 100, signInTimeoutMs: 2_000 });
    try {
      await short.addServer("slow", { url: fixture.mcpUrl, auth: "oauth", approval: "never" });
      await short.waitStatus("slow", "error");
      const first = await short.ok("mcp.signIn", { id: "slow" });
      const redirectUri = new URL(first.authorizationUrl).searchParams.get("redirect_uri")!;
      const failed = await waitOAuth("slow", "failed", short);
      expect(failed.oauth.error).toBe("no answer from the browser within 2 seconds; sign in again");
      await expect(fetch(redirectUri)).rejects.toMatchObject({ cause: { code: "ECONNREFUSED" } });

      const again = await short.ok("mcp.signIn", { id: "slow" });
      expect(again.authorizationUrl).not.toBe(first.authorizationUrl);
      expect((await short.server("slow")).oauth.state).toBe("signing_in");
      expect((await playBrowser(again.authorizationUrl)).status).toBe(200);
      expect((await short.waitStatus("slow", "ready")).oauth).toEqual({ state: "signed_in" });
      expect((await run("mcp__slow__whoami", {}, short)).status).toBe("ok");
    } finally {
      await short.dispose();
    }
  }, 60_000);

  it("bad input: a stdio server, an unknown id, a redirect port in use", async () => {
    await rig.addServer("local", { command: process.execPath, args: ["-e", ""], enabled: false });
    const stdio = await rig.call("mcp.signIn", { id: "local" });
    expect(stdio.error!.data.reason).toBe("invalid_params");
    expect(stdio.error!.message).toMatch(/does not sign in with OAuth: set `auth: oauth`/);
    const unknown = await rig.call("mcp.signIn", { id: "nobody" });
    expect(unknown.error!.data.reason).toBe("not_found");

    const busy = await freePort();
    const { createServer } = await import("node:net");
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(busy, "127.0.0.1", resolve));
    try {
      await rig.addServer("pinned", {
        url: fixture.mcpUrl,
        auth: "oauth",
        oauth: { redirect_port: busy },
      });
      const reply = await rig.call("mcp.signIn", { id: "pinned" });
      expect(reply.error!.message).toContain(`port ${busy} on 127.0.0.1 is in use; set oauth.redirect_port`);
      expect((await waitOAuth("pinned", "failed")).oauth.error).toMatch(/is in use/);
    } finally {
      blocker.close();
    }
    expect((await rig.ok("host.info")).version).toBeTruthy();
  });
});

describe("OAuth sign-in for an SSE MCP server (the same authorization server)", () => {
  it("Needs sign-in, signs in, calls a tool; a refused refresh ends at Needs sign-in", async () => {
    await fixture.control({ accessTtl: 2, refresh: "allow", consent: "allow", tokenStatus: 200 });
    await rig.addServer("legacy", {
      url: fixture.sseUrl,
      transport: "sse",
      auth: "oauth",
      approval: "never",
    });
    const before = await rig.waitStatus("legacy", "error");
    expect(before.transport).toBe("sse");
    expect(before.error).toBe(`HTTP 401 from ${fixture.sseUrl}: sign in`);
    expect(before.oauth).toEqual({ state: "signed_out" });

    const { authorizationUrl } = await rig.ok("mcp.signIn", { id: "legacy" });
    expect(new URL(authorizationUrl).searchParams.get("resource")).toBe(fixture.sseUrl);
    expect((await playBrowser(authorizationUrl)).status).toBe(200);
    expect((await rig.waitStatus("legacy", "ready")).oauth).toEqual({ state: "signed_in" });
    const result = await run("mcp__legacy__whoami");
    expect(result).toMatchObject({ status: "ok" });
    expect(result.content).toMatch(/^signed in as client /);
    const keychain = await stored("legacy");
    await expectNowhereButKeychain([keychain["access_token"]!, keychain["refresh_token"]!]);

    // Expired: renewed before the message is posted, without a 401.
    await sleep(2_200);
    const stats = await fixture.stats();
    expect((await run("mcp__legacy__whoami")).status).toBe("ok");
    expect((await fixture.stats()).refreshes).toBe(stats.refreshes + 1);
    expect((await fixture.stats()).unauthorized).toBe(stats.unauthorized);

    await fixture.control({ refresh: "refuse" });
    await sleep(2_200);
    const refused = await run("mcp__legacy__whoami");
    expect(refused.status).toBe("error");
    expect(refused.content).toMatch(/the MCP server 'legacy' needs sign-in.*Settings → MCP/);
    const after = await waitOAuth("legacy", "signed_out");
    expect(after.status).toBe("error");
    expect(after.error).toBe(`HTTP 401 from ${fixture.sseUrl}: sign in`);
    expect((await stored("legacy"))["access_token"]).toBeUndefined();
    await fixture.control({ refresh: "allow", accessTtl: 3600 });
  }, 60_000);
});
