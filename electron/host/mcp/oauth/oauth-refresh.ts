/**
 * Proactive refresh of an MCP server's OAuth access token (docs/contract.md §13.1): a token that
 * runs out within its margin is refreshed before the request that would carry it, so the server
 * never has to refuse it first. The SDK's `auth()` refreshes (the caller passes it in); this file
 * decides when, and reads how it ended from the keychain:
 * - refreshed: the new token goes with the request;
 * - the tokens are gone (invalid_grant, invalid_client: `auth()` dropped them): Needs sign-in;
 * - anything else (the network, a 5xx): the current token while it is still valid, else a clear
 *   error; a later request tries again — never at once in a loop, and while the current token is
 *   valid at most once per RETRY_GAP_MS.
 */
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { OAuthStore } from "./oauth-store.js";

/** How long before the expiry a token is refreshed, at most (a tenth of a short lifetime). */
export const MAX_REFRESH_MARGIN_MS = 60_000;
/** After a failed refresh, how long a still-valid token is used before the next attempt. */
const RETRY_GAP_MS = 10_000;
/** A refresh's requests end by then: a hung authorization server does not hold a call forever. */
const REFRESH_REQUEST_TIMEOUT_MS = 15_000;

export interface TokenExpiry {
  expiresAt: number;
  issuedAt?: number;
}

/** A tenth of the token's lifetime, capped at a minute (a minute when the lifetime is unknown). */
export function refreshMarginMs(expiry: TokenExpiry): number {
  if (expiry.issuedAt === undefined) return MAX_REFRESH_MARGIN_MS;
  return Math.min(MAX_REFRESH_MARGIN_MS, Math.max(0, (expiry.expiresAt - expiry.issuedAt) / 10));
}

export function refreshDue(expiry: TokenExpiry, now: number): boolean {
  return now >= expiry.expiresAt - refreshMarginMs(expiry);
}

/** One server's refresh in flight (shared by its concurrent requests) and its last failure. */
export interface RefreshState {
  inFlight?: Promise<RefreshOutcome>;
  failedAt?: number;
}

type RefreshOutcome =
  | { kind: "refreshed"; tokens: OAuthTokens }
  | { kind: "sign_in_needed" }
  | { kind: "failed"; reason: string };

/** The refresh failed for a reason that may pass (the network, the server): try again later. */
export class TokenRefreshError extends Error {}

export interface FreshTokensDeps {
  serverId: string;
  store: OAuthStore;
  state: RefreshState;
  /** Runs the SDK's `auth()` for the stored refresh token with this fetch. */
  refresh: (fetchFn: FetchLike) => Promise<"AUTHORIZED" | "REDIRECT">;
  onSignInNeeded: () => void;
  now?: () => number;
}

/** The tokens a request should carry, refreshed first when they run out soon (see the file comment). */
export async function freshTokens(deps: FreshTokensDeps): Promise<OAuthTokens | undefined> {
  const { serverId, store, state } = deps;
  const now = deps.now ?? Date.now;
  const stored = await store.storedTokens(serverId);
  if (!stored) return undefined;
  const { tokens, expiresAt, issuedAt } = stored;
  if (expiresAt === undefined || !tokens.refresh_token) return tokens;
  if (!refreshDue({ expiresAt, ...(issuedAt !== undefined ? { issuedAt } : {}) }, now())) return tokens;
  const stillValid = () => now() < expiresAt;
  if (stillValid() && state.failedAt !== undefined && now() - state.failedAt < RETRY_GAP_MS) return tokens;
  const run = (state.inFlight ??= attempt(deps, now).finally(() => {
    if (state.inFlight === run) delete state.inFlight;
  }));
  const outcome = await run;
  switch (outcome.kind) {
    case "refreshed":
      return outcome.tokens;
    case "sign_in_needed":
      deps.onSignInNeeded();
      throw new UnauthorizedError(`the authorization server refused to renew the sign-in to '${serverId}'`);
    case "failed":
      if (stillValid()) return tokens;
      throw new TokenRefreshError(
        `the sign-in to MCP server '${serverId}' expired and could not be renewed (${outcome.reason}); the next call tries again`,
      );
  }
}

async function attempt(deps: FreshTokensDeps, now: () => number): Promise<RefreshOutcome> {
  const recorder = recordingFetch();
  let result: "AUTHORIZED" | "REDIRECT" | null = null;
  let thrown: unknown;
  try {
    result = await deps.refresh(recorder.fetchFn);
  } catch (error) {
    thrown = error;
  }
  // `auth()` drops the tokens when the authorization server refuses them for good.
  const after = await deps.store.storedTokens(deps.serverId);
  if (!after) return { kind: "sign_in_needed" };
  if (result === "AUTHORIZED") {
    delete deps.state.failedAt;
    return { kind: "refreshed", tokens: after.tokens };
  }
  deps.state.failedAt = now();
  const reason =
    recorder.failure() ??
    (thrown instanceof Error ? thrown.message : "the authorization server did not renew it");
  return { kind: "failed", reason };
}

/**
 * The refresh's fetch, bounded in time, remembering its last failure in words (`auth()` swallows
 * a network error or a 5xx and goes on to ask for a new sign-in, which a connection never does).
 */
function recordingFetch(): { fetchFn: FetchLike; failure: () => string | null } {
  let failure: string | null = null;
  const fetchFn: FetchLike = async (url, init) => {
    const where = new URL(url);
    const timeout = AbortSignal.timeout(REFRESH_REQUEST_TIMEOUT_MS);
    try {
      const response = await fetch(url, {
        ...init,
        signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
      });
      if (response.status >= 500) failure = `HTTP ${response.status} from ${where.origin}${where.pathname}`;
      return response;
    } catch (error) {
      failure = `${where.origin}${where.pathname}: ${networkReason(error)}`;
      throw error;
    }
  };
  return { fetchFn, failure: () => failure };
}

function networkReason(error: unknown): string {
  if (error instanceof Error && error.name === "TimeoutError") {
    return `no answer within ${REFRESH_REQUEST_TIMEOUT_MS / 1000} s`;
  }
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
