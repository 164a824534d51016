/**
 * A failed start in words that say what to fix (docs/contract.md §13.2): "HTTP 401 from …: sign
 * in", the HTML page where an MCP endpoint was expected, a refused connection.
 */
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { McpServerConfig } from "../server-config.js";

export function describeConnectError(error: unknown, config: McpServerConfig): string {
  const where = config.url ?? config.command ?? config.id;
  const message = error instanceof Error ? error.message : String(error);
  const status =
    error instanceof StreamableHTTPError || error instanceof SseError ? (error.code ?? null) : null;
  if (error instanceof UnauthorizedError || status === 401) {
    return `HTTP 401 from ${where}: sign in${config.oauth ? "" : " (set its Authorization header as a secret, or use auth: oauth)"}`;
  }
  if (status === 403)
    return `HTTP 403 from ${where}: the server refuses these credentials; check its headers or sign in again`;
  if (status === 404)
    return `HTTP 404 from ${where}: no MCP endpoint at this URL; check the path (often /mcp or /sse)`;
  if (status !== null && status >= 400) return `HTTP ${status} from ${where}: ${shorten(message)}`;
  if (/Unexpected content type: text\/html/i.test(message) || /<html/i.test(message)) {
    return `${where} answered with a web page, not MCP: check the URL (often ending in /mcp or /sse)`;
  }
  const cause = (error as { cause?: { code?: string } } | null)?.cause?.code;
  if (cause === "ECONNREFUSED")
    return `could not connect to ${where}: connection refused (is the server running?)`;
  if (cause === "ENOTFOUND") return `could not connect to ${where}: the host name does not resolve`;
  if (/Connection closed/i.test(message))
    return `the server closed the connection while starting: ${shorten(message)}`;
  return shorten(message);
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
