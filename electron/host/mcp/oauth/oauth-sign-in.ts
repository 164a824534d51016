/**
 * OAuth sign-in for HTTP MCP servers with `auth: oauth` (docs/contract.md §13.1): the
 * authorization code flow with PKCE and dynamic client registration, run by the MCP SDK's
 * `auth()`; a loopback listener on 127.0.0.1 takes the redirect; the authorization URL opens in
 * the system browser (desktop) or is shown for the person to open (web mode). Tokens go to the
 * keychain only. Each server's sign-in state is what Settings → MCP shows on its row.
 */
import { randomBytes } from "node:crypto";
import {
  auth,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { McpOAuthView } from "../../rpc/methods/mcp.js";
import { KeychainUnavailableError } from "../../secrets/errors.js";
import { listenForCallback, type LoopbackCallback } from "./oauth-callback.js";
import { connectionProvider, signInProvider, type ProviderDeps } from "./oauth-provider.js";
import type { RefreshState } from "./oauth-refresh.js";
import type { OAuthStore } from "./oauth-store.js";
import type { McpServerConfig } from "../server-config.js";

/** How long a sign-in waits for the browser to come back. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

export interface McpOAuthDeps {
  store: OAuthStore;
  /** Opens the authorization URL in the system browser (desktop); absent in web mode. */
  openExternal?: (url: string) => Promise<void>;
  /** Restarts the server's connection (it signed in, or out). */
  restart: (id: string) => Promise<void>;
  /** A server's sign-in state changed: its row is read again. */
  onChange: (id: string) => void;
  redact: (text: string) => string;
  signInTimeoutMs?: number;
}

interface Attempt {
  callback: LoopbackCallback;
  authorizationUrl: string | null;
}

export class McpOAuth {
  private readonly attempts = new Map<string, Attempt>();
  /** The last sign-in's failure, until the next attempt or a sign-out. */
  private readonly failures = new Map<string, { reason: string; keychain: boolean }>();
  /** Servers whose stored tokens were refused for good (the refresh too). */
  private readonly refused = new Set<string>();
  private readonly discovery = new Map<string, { state?: OAuthDiscoveryState }>();
  private readonly refreshes = new Map<string, RefreshState>();

  constructor(private readonly deps: McpOAuthDeps) {}

  /** The row's sign-in state (a server with `auth: oauth`). */
  async view(config: McpServerConfig): Promise<McpOAuthView> {
    const attempt = this.attempts.get(config.id);
    if (attempt) {
      return {
        state: "signing_in",
        ...(attempt.authorizationUrl ? { authorizationUrl: attempt.authorizationUrl } : {}),
      };
    }
    const failure = this.failures.get(config.id);
    if (failure) return { state: "failed", error: failure.reason };
    if (this.refused.has(config.id)) return { state: "signed_out" };
    try {
      return { state: (await this.deps.store.hasTokens(config.id)) ? "signed_in" : "signed_out" };
    } catch (error) {
      return { state: "failed", error: this.describe(error) };
    }
  }

  /**
   * The provider a connection sends its requests with: the stored tokens, refreshed on expiry;
   * null when there are none (the server then answers 401 and the row says "Needs sign-in").
   * Throws when the keychain cannot be read.
   */
  async connectionProvider(config: McpServerConfig): Promise<OAuthClientProvider | null> {
    if (!config.oauth || !(await this.deps.store.hasTokens(config.id))) return null;
    return connectionProvider(this.providerDeps(config), () => this.signInNeeded(config.id));
  }

  /** The server refused the stored tokens and the refresh: the person has to sign in again. */
  signInNeeded(id: string): void {
    if (this.refused.has(id)) return;
    this.refused.add(id);
    this.deps.onChange(id);
  }

  /**
   * Starts a sign-in and answers once the authorization URL is known (the browser has been asked
   * to open it) or the stored refresh token already signed in (`authorizationUrl` null). The rest
   * runs on: the row follows it through `mcp.changed`.
   */
  async signIn(config: McpServerConfig): Promise<{ authorizationUrl: string | null }> {
    if (!config.oauth || !config.url) throw new Error(`MCP server '${config.id}' does not use auth: oauth.`);
    const id = config.id;
    this.cancel(id, "a new sign-in started");
    this.failures.delete(id);
    let callback: LoopbackCallback;
    try {
      callback = await listenForCallback(config.oauth.redirectPort);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const reason =
        code === "EADDRINUSE"
          ? `port ${config.oauth.redirectPort} on 127.0.0.1 is in use; set oauth.redirect_port to a free port, or 0 for any`
          : this.describe(error);
      this.fail(id, reason, false);
      throw new McpSignInError(`Sign-in to '${id}' failed: ${reason}`, false);
    }
    const attempt: Attempt = { callback, authorizationUrl: null };
    this.attempts.set(id, attempt);
    this.deps.onChange(id);
    const state = randomBytes(24).toString("base64url");
    let announce!: (url: URL | null) => void;
    const authorizationUrl = new Promise<URL | null>((resolve) => (announce = resolve));
    const provider = signInProvider(this.providerDeps(config), {
      redirectUrl: callback.redirectUrl,
      state,
      onAuthorizationUrl: (url) => {
        // The URL comes from the server's metadata: only a web page is opened or shown.
        if (url.protocol !== "https:" && url.protocol !== "http:") {
          attempt.callback.close(
            `the authorization server's sign-in page is not a web address (${url.protocol}), so it was not opened`,
          );
          return;
        }
        attempt.authorizationUrl = url.href;
        this.deps.openExternal?.(url.href).catch(() => undefined); // The row shows the link too.
        this.deps.onChange(id);
        announce(url);
      },
    });
    const flow = this.run(config, attempt, provider, state, announce);
    const url = await Promise.race([authorizationUrl, flow.then(() => null)]);
    if (url === null) {
      // Finished without a browser (refreshed), or failed before it had a URL to show.
      const failure = this.failures.get(id);
      if (failure) throw new McpSignInError(`Sign-in to '${id}' failed: ${failure.reason}`, failure.keychain);
      return { authorizationUrl: null };
    }
    return { authorizationUrl: url.href };
  }

  /** Forgets the tokens (and the client registration) and restarts the server: it needs sign-in. */
  async signOut(config: McpServerConfig): Promise<void> {
    this.cancel(config.id, "signed out");
    this.failures.delete(config.id);
    this.refused.delete(config.id);
    await this.deps.store.deleteTokens(config.id);
    await this.deps.store.deleteClientInformation(config.id);
    this.discovery.delete(config.id);
    this.refreshes.delete(config.id);
    this.deps.onChange(config.id);
    await this.deps.restart(config.id);
  }

  /** A removed server: any sign-in in progress ends (its keychain entries go with its secrets). */
  forget(id: string): void {
    this.cancel(id, "the server was removed");
    this.failures.delete(id);
    this.refused.delete(id);
    this.discovery.delete(id);
    this.refreshes.delete(id);
  }

  close(): void {
    for (const id of [...this.attempts.keys()]) this.cancel(id, "the app is closing");
  }

  private async run(
    config: McpServerConfig,
    attempt: Attempt,
    provider: OAuthClientProvider,
    state: string,
    announce: (url: URL | null) => void,
  ): Promise<void> {
    const id = config.id;
    const serverUrl = config.url!;
    const scope = config.oauth!.scope || undefined;
    const current = () => this.attempts.get(id) === attempt;
    let timer: NodeJS.Timeout | undefined;
    try {
      const first = await auth(provider, { serverUrl, ...(scope ? { scope } : {}) });
      if (first === "AUTHORIZED") {
        attempt.callback.close("signed in without the browser");
        return await this.succeeded(id, attempt);
      }
      const timeoutMs = this.deps.signInTimeoutMs ?? SIGN_IN_TIMEOUT_MS;
      timer = setTimeout(
        () =>
          attempt.callback.close(`no answer from the browser within ${duration(timeoutMs)}; sign in again`),
        timeoutMs,
      );
      timer.unref?.();
      const answer = await attempt.callback.answer;
      clearTimeout(timer);
      if (!current()) return;
      if (answer.state !== state) {
        throw new SignInError(
          "the browser came back with the answer of another sign-in (state mismatch), so it was not used; sign in again",
        );
      }
      if (answer.kind === "error") {
        throw new SignInError(
          `the authorization server refused the sign-in (${answer.error}${answer.description ? `: ${answer.description}` : ""})`,
        );
      }
      try {
        await auth(provider, { serverUrl, authorizationCode: answer.code, ...(scope ? { scope } : {}) });
      } catch (error) {
        throw new SignInError(
          `exchanging the authorization code failed: ${this.describe(error)}`,
          error instanceof KeychainUnavailableError,
        );
      }
      if (!current()) return;
      attempt.callback.finish({ ok: true, serverId: id });
      await this.succeeded(id, attempt);
    } catch (error) {
      clearTimeout(timer);
      if (!current()) return;
      const reason = error instanceof SignInError ? error.message : this.describe(error);
      const keychain =
        error instanceof SignInError ? error.keychain : error instanceof KeychainUnavailableError;
      attempt.callback.finish({ ok: false, reason });
      this.attempts.delete(id);
      this.fail(id, reason, keychain);
    } finally {
      announce(null);
    }
  }

  private async succeeded(id: string, attempt: Attempt): Promise<void> {
    if (this.attempts.get(id) === attempt) this.attempts.delete(id);
    this.refused.delete(id);
    this.failures.delete(id);
    this.deps.onChange(id);
    await this.deps.restart(id);
  }

  private fail(id: string, reason: string, keychain: boolean): void {
    this.failures.set(id, { reason, keychain });
    this.deps.onChange(id);
  }

  private cancel(id: string, why: string): void {
    const attempt = this.attempts.get(id);
    if (!attempt) return;
    this.attempts.delete(id);
    attempt.callback.close(why);
  }

  private providerDeps(config: McpServerConfig): ProviderDeps {
    let discovery = this.discovery.get(config.id);
    if (!discovery) this.discovery.set(config.id, (discovery = {}));
    let refresh = this.refreshes.get(config.id);
    if (!refresh) this.refreshes.set(config.id, (refresh = {}));
    return {
      serverId: config.id,
      serverUrl: config.url!,
      settings: config.oauth!,
      store: this.deps.store,
      discovery,
      refresh,
    };
  }

  /** A failure in words, redacted (a raw body from the authorization server could echo a token). */
  private describe(error: unknown): string {
    if (error instanceof KeychainUnavailableError) {
      const advice = error.advice.charAt(0).toUpperCase() + error.advice.slice(1);
      return `the OS keychain is not available, so the sign-in could not be kept: ${error.detail}. ${advice}`;
    }
    let text: string;
    if (error instanceof OAuthError) {
      const code = (error.constructor as { errorCode?: string }).errorCode ?? "error";
      text = `${code}${error.message ? `: ${error.message}` : ""}`;
    } else {
      text = error instanceof Error ? error.message : String(error);
    }
    const line = this.deps.redact(text).replace(/\s+/g, " ").trim();
    return line.length > 300 ? `${line.slice(0, 300)}…` : line;
  }
}

/** "5 minutes", "1 minute", "2 seconds". */
function duration(ms: number): string {
  const [amount, unit] =
    ms >= 60_000 ? [Math.round(ms / 60_000), "minute"] : [Math.round(ms / 1000), "second"];
  return `${amount} ${unit}${amount === 1 ? "" : "s"}`;
}

/** A failure whose message is already the reason shown to the person. */
class SignInError extends Error {
  constructor(
    message: string,
    readonly keychain = false,
  ) {
    super(message);
  }
}

/** `mcp.signIn` could not start the sign-in; `keychain`: for want of a keychain to keep it in. */
export class McpSignInError extends Error {
  constructor(
    message: string,
    readonly keychain: boolean,
  ) {
    super(message);
  }
}
