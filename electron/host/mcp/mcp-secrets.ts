/**
 * MCP secrets in the keychain (docs/contract.md §13.1): `secret_env` values under account
 * `mcp:<id>:env:<NAME>`, `secret_headers` values under `mcp:<id>:header:<Name>`. Values are read
 * only to start a server; views carry the last 4 characters at most. An OAuth sign-in's tokens sit
 * under `mcp:<id>:oauth:<part>` and never leave the host.
 */
import type { Vault } from "../secrets/vault.js";

export type SecretKind = "env" | "header";
/** `oauth` accounts hold an OAuth sign-in's tokens and client registration (oauth-store.ts). */
export type AccountKind = SecretKind | "oauth";

/** The vault's provider slot for MCP accounts; the rest of the account is its "profile". */
const VAULT_OWNER = "mcp";

export const secretAccount = (id: string, kind: SecretKind, name: string): string =>
  `${VAULT_OWNER}:${id}:${kind}:${name}`;

export class McpSecrets {
  constructor(private readonly vault: Vault) {}

  get(id: string, kind: AccountKind, name: string): Promise<string | null> {
    return this.vault.getKey(VAULT_OWNER, `${id}:${kind}:${name}`);
  }

  async set(id: string, kind: AccountKind, name: string, value: string): Promise<void> {
    await this.vault.setKey(VAULT_OWNER, value, `${id}:${kind}:${name}`);
  }

  async delete(id: string, kind: AccountKind, name: string): Promise<void> {
    await this.vault.deleteKey(VAULT_OWNER, `${id}:${kind}:${name}`);
  }

  async hint(id: string, kind: SecretKind, name: string): Promise<string | null> {
    const value = await this.get(id, kind, name).catch(() => null);
    return value === null ? null : value.slice(-4);
  }

  /** Every named secret's value that is set (names without a value are left out). */
  async values(id: string, kind: SecretKind, names: readonly string[]): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const name of names) {
      const value = await this.get(id, kind, name);
      if (value !== null) out[name] = value;
    }
    return out;
  }

  /** Removes every secret of a server (it was removed). */
  async deleteAll(id: string): Promise<void> {
    const prefix = `${VAULT_OWNER}:${id}:`;
    for (const account of await this.vault.listAccounts()) {
      if (!account.startsWith(prefix)) continue;
      await this.vault.deleteKey(VAULT_OWNER, account.slice(VAULT_OWNER.length + 1));
    }
  }
}
