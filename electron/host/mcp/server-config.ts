/**
 * One `mcp_servers.<id>` block as the connection manager runs it (docs/contract.md §13.1): every
 * default filled in, `trust` read as Hermes does, seconds turned into milliseconds, and `${VAR}` /
 * `${env:VAR}` / `${userHome}` expanded in command, args, env, url, headers and roots.
 */
import { homedir } from "node:os";
import type { McpApprovalMode, McpServerDocument } from "../config/config-schema.js";
import type { ConfigIssue } from "../config/config-errors.js";
import { findDocumentIssues } from "../config/schema-issues.js";
import type { McpTransport } from "../rpc/methods/mcp.js";

export interface McpServerConfig {
  id: string;
  transport: McpTransport;
  enabled: boolean;
  /** stdio: the program and its arguments, expanded. */
  command: string | null;
  args: string[];
  env: Record<string, string>;
  secretEnv: string[];
  /** HTTP: the endpoint, expanded. */
  url: string | null;
  headers: Record<string, string>;
  secretHeaders: string[];
  /** `auth: oauth` on an HTTP server: its `oauth` block with defaults; null otherwise. */
  oauth: McpOAuthSettings | null;
  callTimeoutMs: number;
  connectTimeoutMs: number;
  include: string[];
  exclude: string[];
  approval: McpApprovalMode;
  alwaysAllow: string[];
  /** Folders answered to roots/list, as paths (expanded). */
  roots: string[];
  sampling: {
    enabled: boolean;
    model: string;
    maxTokensCap: number;
    timeoutMs: number;
    maxRpm: number;
    allowedModels: string[];
  };
  elicitation: { enabled: boolean; timeoutMs: number };
}

export interface McpOAuthSettings {
  /** A client the person registered; empty = dynamic client registration. */
  clientId: string;
  scope: string;
  /** The loopback redirect's port; 0 = any free port. */
  redirectPort: number;
}

export const DEFAULT_CALL_TIMEOUT_S = 300;
export const DEFAULT_CONNECT_TIMEOUT_S = 60;

export interface ExpandContext {
  env: Readonly<Record<string, string | undefined>>;
  userHome: string;
}

export const defaultExpandContext = (): ExpandContext => ({ env: process.env, userHome: homedir() });

/** `${userHome}`, `${env:VAR}` and `${VAR}`; an unset variable expands to "". */
export function expandVariables(text: string, context: ExpandContext): string {
  return text.replace(
    /\$\{(env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g,
    (_whole, envPrefix: string | undefined, name: string) => {
      if (!envPrefix && name === "userHome") return context.userHome;
      return context.env[name] ?? "";
    },
  );
}

/** The approval in force: `approval` when written, else Hermes' `trust`, else `ask`. */
export function approvalMode(doc: McpServerDocument): McpApprovalMode {
  if (doc.approval) return doc.approval;
  if (doc.trust === "full") return "never";
  if (doc.trust === "untrusted") return "read_only";
  return "ask";
}

export function transportOf(doc: McpServerDocument): McpTransport {
  if (doc.command !== undefined && doc.url === undefined) return "stdio";
  return doc.transport === "sse" ? "sse" : "streamable_http";
}

export function toServerConfig(
  id: string,
  doc: McpServerDocument,
  context: ExpandContext = defaultExpandContext(),
): McpServerConfig {
  const expand = (text: string) => expandVariables(text, context);
  const expandValues = (map: Record<string, string> | undefined) =>
    Object.fromEntries(Object.entries(map ?? {}).map(([key, value]) => [key, expand(value)]));
  const sampling = doc.sampling ?? {};
  const transport = transportOf(doc);
  return {
    id,
    transport,
    enabled: doc.enabled ?? true,
    command: transport === "stdio" && doc.command ? expand(doc.command) : null,
    args: (doc.args ?? []).map(expand),
    env: expandValues(doc.env),
    secretEnv: [...(doc.secret_env ?? [])],
    url: transport !== "stdio" && doc.url ? expand(doc.url) : null,
    headers: expandValues(doc.headers),
    secretHeaders: [...(doc.secret_headers ?? [])],
    oauth:
      doc.auth === "oauth" && transport !== "stdio"
        ? {
            clientId: doc.oauth?.client_id ?? "",
            scope: doc.oauth?.scope ?? "",
            redirectPort: doc.oauth?.redirect_port ?? 0,
          }
        : null,
    callTimeoutMs: (doc.timeout ?? DEFAULT_CALL_TIMEOUT_S) * 1000,
    connectTimeoutMs: (doc.connect_timeout ?? DEFAULT_CONNECT_TIMEOUT_S) * 1000,
    include: [...(doc.tools?.include ?? [])],
    exclude: [...(doc.tools?.exclude ?? [])],
    approval: approvalMode(doc),
    alwaysAllow: [...(doc.always_allow ?? [])],
    roots: (doc.roots ?? []).map(expand),
    sampling: {
      enabled: sampling.enabled ?? true,
      model: sampling.model ?? "",
      maxTokensCap: sampling.max_tokens_cap ?? 4096,
      timeoutMs: (sampling.timeout ?? 30) * 1000,
      maxRpm: sampling.max_rpm ?? 10,
      allowedModels: [...(sampling.allowed_models ?? [])],
    },
    elicitation: {
      enabled: doc.elicitation?.enabled ?? true,
      timeoutMs: (doc.elicitation?.timeout ?? 300) * 1000,
    },
  };
}

/**
 * What is wrong with a block saved under `id`, by config.yaml's own schema (so the messages name
 * `mcp_servers.<id>.<key>` exactly as a hand edit would be told).
 */
export function serverBlockIssues(id: string, block: unknown): ConfigIssue[] {
  return findDocumentIssues({ mcp_servers: { [id]: block } }).map(({ key, message }) => ({ key, message }));
}
