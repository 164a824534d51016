/**
 * A stdio server's environment (docs/contract.md §13.2): the MCP SDK's default safe set (HOME,
 * LOGNAME, PATH, SHELL, TERM, USER; Windows: the SDK's list), LANG, the login-shell PATH, the
 * block's `env` and its `secret_env` values from the keychain — nothing else of the host's
 * environment (never the web token nor a provider's `key_env`).
 */
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";

export function stdioEnvironment(input: {
  pathValue: string;
  env: Readonly<Record<string, string>>;
  secrets: Readonly<Record<string, string>>;
}): Record<string, string> {
  const base = getDefaultEnvironment();
  const lang = process.env["LANG"];
  return {
    ...base,
    ...(lang ? { LANG: lang } : {}),
    ...(input.pathValue ? { PATH: input.pathValue } : {}),
    ...input.env,
    ...input.secrets,
  };
}
