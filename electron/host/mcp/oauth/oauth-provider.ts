/**
 * The MCP SDK's OAuthClientProvider for one server (docs/contract.md §13.1 `auth: oauth`): tokens
 * and the client registration in the keychain (oauth-store.ts), the PKCE verifier and discovery
 * in memory. Two kinds:
 * - a sign-in's provider: registers the app dynamically when it has no client, and hands the
 *   authorization URL to the sign-in (which opens the system browser or shows the link);
 * - a running connection's provider: sends the stored token, refreshed shortly before it expires
 *   (oauth-refresh.ts) or when the server refuses it, and never registers a client or opens a
 *   browser — when the tokens are refused for good it reports that the server needs sign-in.
 */
import {
  auth,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { freshTokens, TokenRefreshError, type RefreshState } from "./oauth-refresh.js";
import type { OAuthStore } from "./oauth-store.js";
import type { McpOAuthSettings } from "../server-config.js";

export const CLIENT_NAME = "Hermes Desktop";
/** Where a connection's provider says the redirect would go; it never starts a browser flow. */
const NO_REDIRECT = "http://127.0.0.1/callback";

export interface SignInHooks {
  redirectUrl: string;
  state: string;
  /** The authorization URL the SDK built (with the PKCE challenge and our state). */
  onAuthorizationUrl(url: URL): void;
}

export interface ProviderDeps {
  serverId: string;
  serverUrl: string;
  settings: McpOAuthSettings;
  store: OAuthStore;
  /** The server's discovery, kept across providers of the same server while the app runs. */
  discovery: { state?: OAuthDiscoveryState };
  /** The server's token refresh in flight and its last failure, likewise. */
  refresh: RefreshState;
}

/** A running connection's provider (see the file comment). */
export function connectionProvider(deps: ProviderDeps, onSignInNeeded: () => void): OAuthClientProvider {
  const { serverId, serverUrl, store } = deps;
  // What `auth()` refreshes with: the stored tokens as they are, and no sign-in to start.
  const refresher: OAuthClientProvider = {
    ...withoutBrowser(deps),
    redirectToAuthorization: () => undefined,
  };
  return {
    ...withoutBrowser(deps),
    tokens: () =>
      freshTokens({
        serverId,
        store,
        state: deps.refresh,
        refresh: (fetchFn) => auth(refresher, { serverUrl, fetchFn }),
        onSignInNeeded,
      }),
    // The server refused the token and `auth()` could not renew it. With the refresh token still
    // stored, the refresh failed on the way (the network, a 5xx): not a reason to sign in again.
    redirectToAuthorization: async () => {
      if ((await store.tokens(serverId))?.refresh_token) {
        throw new TokenRefreshError(
          `the sign-in to MCP server '${serverId}' could not be renewed (the authorization server did not answer); the next call tries again`,
        );
      }
      onSignInNeeded();
    },
  };
}

function withoutBrowser(deps: ProviderDeps): Omit<OAuthClientProvider, "redirectToAuthorization"> {
  return {
    ...common(deps, NO_REDIRECT),
    saveCodeVerifier: () => undefined,
    codeVerifier: () => {
      throw new Error("no sign-in is in progress");
    },
  };
}

/** A sign-in's provider (see the file comment). */
export function signInProvider(deps: ProviderDeps, hooks: SignInHooks): OAuthClientProvider {
  let verifier: string | null = null;
  return {
    ...common(deps, hooks.redirectUrl),
    state: () => hooks.state,
    saveClientInformation: async (information: OAuthClientInformationMixed) => {
      // A client id from config is the person's registration: nothing to store.
      if (!deps.settings.clientId) await deps.store.saveClientInformation(deps.serverId, information);
    },
    redirectToAuthorization: (url: URL) => hooks.onAuthorizationUrl(url),
    saveCodeVerifier: (value: string) => {
      verifier = value;
    },
    codeVerifier: () => {
      if (verifier === null) throw new Error("the sign-in has no PKCE verifier");
      return verifier;
    },
  };
}

function common(
  deps: ProviderDeps,
  redirectUrl: string,
): Omit<OAuthClientProvider, "redirectToAuthorization" | "saveCodeVerifier" | "codeVerifier"> {
  const { serverId, settings, store, discovery } = deps;
  const metadata: OAuthClientMetadata = {
    client_name: CLIENT_NAME,
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    // A desktop app keeps no secret: a public client, protected by PKCE.
    token_endpoint_auth_method: "none",
    ...(settings.scope ? { scope: settings.scope } : {}),
  };
  return {
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata() {
      return metadata;
    },
    clientInformation: async () =>
      settings.clientId ? { client_id: settings.clientId } : store.clientInformation(serverId),
    tokens: () => store.tokens(serverId),
    saveTokens: (tokens: OAuthTokens) => store.saveTokens(serverId, tokens),
    invalidateCredentials: async (scope) => {
      if (scope === "all" || scope === "tokens") await store.deleteTokens(serverId);
      if (scope === "all" || scope === "client") await store.deleteClientInformation(serverId);
      if (scope === "all" || scope === "discovery") delete discovery.state;
    },
    saveDiscoveryState: (state) => {
      discovery.state = state;
    },
    discoveryState: () => discovery.state,
  };
}
