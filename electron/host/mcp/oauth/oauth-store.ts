/**
 * An MCP server's OAuth sign-in in the keychain (docs/contract.md §13.1: "tokens in the
 * keychain"): never in config.yaml, a log, an event or the renderer. The access and refresh
 * tokens are entries of their own, so the vault knows each value and redaction masks it wherever
 * it would appear; the rest (token type, expiry, scope, issuer) and the client registration are
 * JSON beside them.
 */
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { McpSecrets } from "../mcp-secrets.js";

const ACCESS = "access_token";
const REFRESH = "refresh_token";
const TOKEN_META = "tokens";
const CLIENT = "client";

/** What the store keeps beside the tokens: `expires_at` replaces the relative `expires_in`. */
interface TokenMeta {
  token_type: string;
  scope?: string;
  issuer?: string;
  /** Epoch ms when the access token expires, from `expires_in` at the moment it was saved. */
  expires_at?: number;
  /** Epoch ms when it was saved: with `expires_at`, the token's lifetime (oauth-refresh.ts). */
  issued_at?: number;
}

/** The stored tokens with their expiry as epoch ms (absent when the server gave no `expires_in`). */
export interface StoredTokens {
  tokens: OAuthTokens;
  expiresAt?: number;
  issuedAt?: number;
}

export class OAuthStore {
  constructor(
    private readonly secrets: McpSecrets,
    private readonly now: () => number = Date.now,
  ) {}

  /** The stored tokens (`expires_in` as what is left of it), or undefined when signed out. */
  async tokens(id: string): Promise<OAuthTokens | undefined> {
    return (await this.storedTokens(id))?.tokens;
  }

  /** The stored tokens with their expiry, or undefined when signed out. */
  async storedTokens(id: string): Promise<StoredTokens | undefined> {
    const access = await this.secrets.get(id, "oauth", ACCESS);
    if (access === null) return undefined;
    const meta = parseJson<TokenMeta>(await this.secrets.get(id, "oauth", TOKEN_META)) ?? {
      token_type: "Bearer",
    };
    const refresh = await this.secrets.get(id, "oauth", REFRESH);
    const { expires_at, issued_at, ...rest } = meta;
    const tokens: OAuthTokens = {
      ...rest,
      access_token: access,
      ...(refresh !== null ? { refresh_token: refresh } : {}),
      ...(expires_at !== undefined
        ? { expires_in: Math.max(0, Math.floor((expires_at - this.now()) / 1000)) }
        : {}),
    };
    return {
      tokens,
      ...(expires_at !== undefined ? { expiresAt: expires_at } : {}),
      ...(issued_at !== undefined ? { issuedAt: issued_at } : {}),
    };
  }

  async hasTokens(id: string): Promise<boolean> {
    return (await this.secrets.get(id, "oauth", ACCESS)) !== null;
  }

  /** Stores a token response; a refresh that brings no new refresh token keeps the old one. */
  async saveTokens(id: string, tokens: OAuthTokens): Promise<void> {
    const now = this.now();
    const meta: TokenMeta = {
      token_type: tokens.token_type,
      ...(tokens.scope ? { scope: tokens.scope } : {}),
      ...(typeof tokens.issuer === "string" ? { issuer: tokens.issuer } : {}),
      ...(tokens.expires_in !== undefined
        ? { expires_at: now + tokens.expires_in * 1000, issued_at: now }
        : {}),
    };
    // The refresh token first: a keychain that fails half-way leaves the old access token, not a
    // new access token paired with a refresh token of another grant.
    if (tokens.refresh_token) await this.secrets.set(id, "oauth", REFRESH, tokens.refresh_token);
    await this.secrets.set(id, "oauth", TOKEN_META, JSON.stringify(meta));
    await this.secrets.set(id, "oauth", ACCESS, tokens.access_token);
  }

  async deleteTokens(id: string): Promise<void> {
    await this.secrets.delete(id, "oauth", ACCESS);
    await this.secrets.delete(id, "oauth", REFRESH);
    await this.secrets.delete(id, "oauth", TOKEN_META);
  }

  async clientInformation(id: string): Promise<OAuthClientInformationMixed | undefined> {
    return parseJson<OAuthClientInformationMixed>(await this.secrets.get(id, "oauth", CLIENT));
  }

  async saveClientInformation(id: string, information: OAuthClientInformationMixed): Promise<void> {
    await this.secrets.set(id, "oauth", CLIENT, JSON.stringify(information));
  }

  async deleteClientInformation(id: string): Promise<void> {
    await this.secrets.delete(id, "oauth", CLIENT);
  }
}

function parseJson<T>(text: string | null): T | undefined {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined; // An entry edited by hand reads as absent: signing in again rewrites it.
  }
}
