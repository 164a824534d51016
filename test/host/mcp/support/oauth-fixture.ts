/** The OAuth-protected MCP server of test/fixtures/mcp/oauth-server.mjs, and a browser played by fetch. */
import { spawn, type ChildProcess } from "node:child_process";
import { faultServer } from "./mcp-rig.js";

export interface OAuthFixture {
  origin: string;
  mcpUrl: string;
  /** The same whoami server over the legacy SSE transport. */
  sseUrl: string;
  control(change: {
    consent?: "allow" | "deny";
    tokenStatus?: number;
    /** The token endpoint drops the connection (a network failure). */
    tokenDrop?: boolean;
    /** Every access token issued so far is refused from now on (the refresh tokens stay good). */
    revokeAccess?: boolean;
    accessTtl?: number;
    refresh?: "allow" | "refuse";
  }): Promise<void>;
  stats(): Promise<{
    registrations: number;
    codeGrants: number;
    refreshes: number;
    refused: number;
    mcpRequests: number;
    /** The resource server's 401 answers. */
    unauthorized: number;
    dropped: number;
    lastRedirectUri: string;
    /** Every access and refresh token issued so far. */
    issued: string[];
  }>;
  stop(): Promise<void>;
}

export async function startOAuthFixture(): Promise<OAuthFixture> {
  const child: ChildProcess = spawn(process.execPath, [faultServer("oauth-server.mjs")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening (\d+)/.exec(seen);
      if (match) resolve(Number(match[1]));
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`oauth-server exited (${code}): ${seen}`)));
  });
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    mcpUrl: `${origin}/mcp`,
    sseUrl: `${origin}/sse`,
    async control(change) {
      const res = await fetch(`${origin}/_control`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(change),
      });
      if (!res.ok) throw new Error(`control failed: ${res.status}`);
    },
    stats: async () => (await fetch(`${origin}/_stats`)).json() as never,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

/**
 * The person's browser: opens the authorization URL (the fixture consents at once or refuses,
 * as told), follows its redirect to the app's loopback listener (after `tamper`, when given) and
 * reads the page the app answers with.
 */
export async function playBrowser(
  authorizationUrl: string,
  tamper?: (redirect: URL) => void,
): Promise<{ status: number; text: string; redirect: URL }> {
  const consent = await fetch(authorizationUrl, { redirect: "manual" });
  if (consent.status !== 302) {
    throw new Error(`the authorization page answered ${consent.status}: ${await consent.text()}`);
  }
  const redirect = new URL(consent.headers.get("location")!);
  tamper?.(redirect);
  const page = await fetch(redirect);
  return { status: page.status, text: await page.text(), redirect };
}
