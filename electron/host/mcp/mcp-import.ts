/**
 * Claude Desktop's `{"mcpServers": {…}}` as `mcp_servers` blocks (docs/contract.md §13.5
 * `mcp.import`): ids made valid, `env` values whose name says KEY, TOKEN, SECRET or PASSWORD (any
 * case) moved out of the block into the keychain as `secret_env`.
 */
import { MCP_SERVER_ID_PATTERN, type McpServerDocument } from "../config/config-schema.js";

export interface ImportedServer {
  id: string;
  block: McpServerDocument;
  /** Values for the keychain, by env name. */
  secrets: Record<string, string>;
  /** Header values for the keychain (Authorization and names like the secret env names). */
  headerSecrets: Record<string, string>;
}

export class ImportFormatError extends Error {
  override readonly name = "ImportFormatError";
}

const SECRET_NAME = /key|token|secret|password/i;
const idPattern = new RegExp(MCP_SERVER_ID_PATTERN);

/** A valid id for a Claude Desktop name: lowercase, other characters as `-`, at most 32. */
export function toServerId(name: string): string {
  const id = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[-_]+/, "")
    .slice(0, 32)
    .replace(/[-_]+$/, "");
  return idPattern.test(id) ? id : "";
}

export function parseClaudeDesktop(json: string): {
  servers: ImportedServer[];
  skipped: { id: string; reason: string }[];
} {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new ImportFormatError(
      `This is not JSON (${error instanceof Error ? error.message : String(error)}); paste Claude Desktop's claude_desktop_config.json.`,
    );
  }
  const root = isRecord(parsed) && isRecord(parsed["mcpServers"]) ? parsed["mcpServers"] : null;
  if (!root)
    throw new ImportFormatError(
      'No "mcpServers" object found; paste Claude Desktop\'s {"mcpServers": {…}} JSON.',
    );
  const servers: ImportedServer[] = [];
  const skipped: { id: string; reason: string }[] = [];
  for (const [name, entry] of Object.entries(root)) {
    const id = toServerId(name);
    if (!id) {
      skipped.push({ id: name, reason: "its name has no letter or digit to make an id from" });
      continue;
    }
    if (!isRecord(entry)) {
      skipped.push({ id, reason: "its entry is not an object" });
      continue;
    }
    const block: McpServerDocument = {};
    const secrets: Record<string, string> = {};
    if (typeof entry["command"] === "string") block.command = entry["command"];
    if (Array.isArray(entry["args"])) block.args = entry["args"].map(String);
    if (typeof entry["url"] === "string") block.url = entry["url"];
    if (entry["type"] === "sse" || entry["transport"] === "sse") block.transport = "sse";
    const headerSecrets: Record<string, string> = {};
    if (isRecord(entry["headers"])) {
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(entry["headers"])) {
        if (SECRET_NAME.test(key) || /^(authorization|cookie)$/i.test(key))
          headerSecrets[key] = String(value);
        else headers[key] = String(value);
      }
      if (Object.keys(headers).length) block.headers = headers;
      if (Object.keys(headerSecrets).length) block.secret_headers = Object.keys(headerSecrets);
    }
    if (isRecord(entry["env"])) {
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(entry["env"])) {
        if (SECRET_NAME.test(key)) secrets[key] = String(value);
        else env[key] = String(value);
      }
      if (Object.keys(env).length) block.env = env;
      if (Object.keys(secrets).length) block.secret_env = Object.keys(secrets);
    }
    if (entry["disabled"] === true) block.enabled = false;
    servers.push({ id, block, secrets, headerSecrets });
  }
  return { servers, skipped };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
