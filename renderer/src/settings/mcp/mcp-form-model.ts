/**
 * The Add/Edit MCP server form's fields and how they become a `mcp_servers.<id>` block. Lists are
 * typed one item a line (an argument may hold spaces); the block keeps every key the form doesn't
 * show (timeouts, tool filters, sampling…) as it was, so an edit loses nothing.
 */
import type { ParamsOf } from "../../../../electron/host/rpc/contract.js";
import type { McpServerView } from "../../../../electron/host/rpc/methods/mcp.js";
import { HermesRpcError } from "../../api/rpc-error.js";

export type McpServerDocument = ParamsOf<"mcp.save">["server"];
export type McpApprovalMode = McpServerView["approval"];

export type McpFormKind = "stdio" | "url";

export interface McpFormFields {
  id: string;
  kind: McpFormKind;
  command: string;
  /** One argument a line. */
  args: string;
  /** `NAME=value`, one a line. */
  env: string;
  url: string;
  transport: "streamable_http" | "sse";
  /** `Name: value`, one a line. */
  headers: string;
  oauth: boolean;
  approval: McpApprovalMode;
}

/** The fields a host error can point at (its `key`'s last part), plus `form` for the rest. */
export type McpFieldKey =
  "id" | "command" | "args" | "env" | "url" | "transport" | "headers" | "auth" | "approval" | "secrets";
export type McpFieldErrors = Partial<Record<McpFieldKey | "form", string>>;

export const emptyMcpFields: McpFormFields = {
  id: "",
  kind: "stdio",
  command: "",
  args: "",
  env: "",
  url: "",
  transport: "streamable_http",
  headers: "",
  oauth: false,
  approval: "ask",
};

export function fieldsForServer(server: McpServerView): McpFormFields {
  const c = server.config;
  return {
    id: server.id,
    kind: c.url !== undefined ? "url" : "stdio",
    command: c.command ?? "",
    args: (c.args ?? []).join("\n"),
    env: Object.entries(c.env ?? {})
      .map(([name, value]) => `${name}=${value}`)
      .join("\n"),
    url: c.url ?? "",
    transport: c.transport ?? "streamable_http",
    headers: Object.entries(c.headers ?? {})
      .map(([name, value]) => `${name}: ${value}`)
      .join("\n"),
    oauth: c.auth === "oauth",
    approval: server.approval,
  };
}

const lines = (text: string): string[] =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");

/** `NAME=value` / `Name: value` lines as a record; a line without the separator is an error naming it. */
function pairs(text: string, separator: "=" | ":", what: string): Record<string, string> | string {
  const record: Record<string, string> = {};
  for (const line of lines(text)) {
    const at = line.indexOf(separator);
    if (at <= 0)
      return `"${line}" is not ${what}: write it as ${separator === "=" ? "NAME=value" : "Name: value"}.`;
    record[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return record;
}

/**
 * The block to save: the previous block (when editing) with the form's keys over it. Returns the
 * field errors instead when a line can't be read.
 */
export function blockFromFields(
  fields: McpFormFields,
  previous: McpServerDocument | null,
): { block: McpServerDocument } | { errors: McpFieldErrors } {
  const block: McpServerDocument = { ...(previous ?? {}) };
  const errors: McpFieldErrors = {};
  // The other transport's keys go: a block has either `command` or `url`.
  for (const key of [
    "command",
    "args",
    "env",
    "url",
    "transport",
    "headers",
    "auth",
    "oauth",
    "secret_env",
    "secret_headers",
  ] as const) {
    delete block[key];
  }
  if (fields.kind === "stdio") {
    block.command = fields.command.trim();
    const args = lines(fields.args);
    if (args.length) block.args = args;
    const env = pairs(fields.env, "=", "an environment variable");
    if (typeof env === "string") errors.env = env;
    else if (Object.keys(env).length) block.env = env;
    if (previous?.secret_env?.length) block.secret_env = previous.secret_env;
  } else {
    block.url = fields.url.trim();
    if (fields.transport === "sse") block.transport = "sse";
    const headers = pairs(fields.headers, ":", "a header");
    if (typeof headers === "string") errors.headers = headers;
    else if (Object.keys(headers).length) block.headers = headers;
    if (fields.oauth) {
      block.auth = "oauth";
      if (previous?.oauth) block.oauth = previous.oauth;
    }
    if (previous?.secret_headers?.length) block.secret_headers = previous.secret_headers;
  }
  block.approval = fields.approval;
  // `trust` is Hermes' older word for the same thing; the form's choice replaces it.
  delete block.trust;
  return Object.keys(errors).length ? { errors } : { block };
}

/** The shape of an MCP server id (docs/contract.md §13.1), only to route the host's refusal to its field. */
const idShape = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/**
 * Where a host refusal belongs: `invalid_params` with a key such as `mcp_servers.files.command`
 * goes under that field; an id the host refused under Server ID; anything else above the buttons.
 */
export function fieldErrorOf(err: unknown, id: string): McpFieldErrors | null {
  if (!(err instanceof HermesRpcError) || err.reason !== "invalid_params" || !err.key) return null;
  const key = err.key;
  const prefix = `mcp_servers.${id}`;
  if (key === "id" || key === "mcp_servers") return { id: err.message };
  // The id itself (the host names `mcp_servers.<id>` for an id it refuses), or the block as a
  // whole (e.g. both `command` and `url`), which goes above the buttons.
  if (key === prefix) return idShape.test(id) ? { form: err.message } : { id: err.message };
  const rest = key.startsWith(`${prefix}.`) ? key.slice(prefix.length + 1) : key.replace(/^server\.?/, "");
  const head = rest.split(".")[0] ?? "";
  const byKey: Record<string, McpFieldKey> = {
    command: "command",
    args: "args",
    env: "env",
    secret_env: "secrets",
    url: "url",
    transport: "transport",
    headers: "headers",
    secret_headers: "secrets",
    auth: "auth",
    oauth: "auth",
    approval: "approval",
    trust: "approval",
  };
  const field = byKey[head];
  return field ? { [field]: err.message } : { form: err.message };
}
