/**
 * MCP servers (docs/contract.md §13.5): the renderer's only way to see and steer the host's MCP
 * connections. The renderer never talks to a server; every method here goes through the host.
 */
import {
  MCP_SERVER_ID_PATTERN,
  type McpApprovalMode,
  type McpServerDocument,
} from "../../config/config-schema.js";
import { Type } from "@sinclair/typebox";
import { method, noParams, params, type EmptyParams } from "../define.js";
import { AnyObject, Enum, MapOf, narrowed } from "../schema-builders.js";

export type McpTransport = "stdio" | "streamable_http" | "sse";
export type McpStatus = "disabled" | "starting" | "ready" | "error";

export interface McpToolView {
  /** The server's own name for the tool. */
  name: string;
  /** What the model sees: `mcp__<id>__<tool>` (docs/contract.md §13.2). */
  qualifiedName: string;
  description: string;
  /** Off when `tools.include`/`tools.exclude` leave it out. */
  enabled: boolean;
  /** The server marks it `readOnlyHint: true`. */
  readOnly: boolean;
  /** Whether a call asks first under the server's `approval` and `always_allow`. */
  approval: "ask" | "allow";
}

/**
 * An `auth: oauth` server's sign-in (docs/contract.md §13.1): `signed_out` ("Needs sign-in"),
 * `signing_in` (the browser is open at `authorizationUrl`; web mode shows it as a link),
 * `signed_in`, or `failed` with the reason. Tokens never leave the host.
 */
export type McpOAuthView =
  | { state: "signed_out" | "signed_in" }
  | { state: "signing_in"; authorizationUrl?: string }
  | { state: "failed"; error: string };

/** A secret's presence without its value: `keyHint` is exactly its last 4 characters. */
export interface McpSecretView {
  name: string;
  hasValue: boolean;
  keyHint: string | null;
}

export interface McpServerView {
  id: string;
  transport: McpTransport;
  enabled: boolean;
  status: McpStatus;
  /** What went wrong and what to fix (status `error`). */
  error?: string;
  serverInfo?: { name: string; version: string; title?: string };
  /** The server's tools; empty until it is ready. */
  tools: McpToolView[];
  /** How many resources and prompts it lists (0 when it offers none). */
  resources: number;
  prompts: number;
  /** The `mcp_servers.<id>` block as config.yaml holds it (no secret values: those are in `secrets`). */
  config: McpServerDocument;
  /** The approval mode in force (`trust` read as Hermes does). */
  approval: McpApprovalMode;
  /** `secret_env` and `secret_headers`, each with whether the keychain holds a value. */
  secrets: { env: McpSecretView[]; headers: McpSecretView[] };
  /** Present for a server with `auth: oauth`. */
  oauth?: McpOAuthView;
  /** Restarts after an exit since the app started (or since the last `mcp.restart`). */
  restarts: number;
}

export interface McpResourceView {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface McpResourceTemplateView {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** One item of `resources/read`: text, or base64 `blob` for binary content. */
export type McpResourceContents =
  { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };

export interface McpPromptView {
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required: boolean }[];
}

/** A prompt message as the server sent it (MCP content: text, image, audio, resource, link). */
export interface McpPromptMessage {
  role: "user" | "assistant";
  content: Record<string, unknown> & { type: string };
}

export type McpApprovalDecision = "once" | "always" | "deny";
export type McpElicitationAction = "accept" | "decline" | "cancel";

/** A request waiting for the person, as its event announced it (for a window opened later). */
export interface McpPendingRequests {
  approvals: McpApprovalRequest[];
  sampling: McpSamplingRequest[];
  elicitations: McpElicitationRequest[];
}

export interface McpApprovalRequest {
  /** The tool call's id (the same as its progress events'). */
  requestId: string;
  sessionId: string;
  server: string;
  /** The server's name for the tool. */
  tool: string;
  qualifiedName: string;
  description: string;
  arguments: Record<string, unknown>;
  /** The tool's annotations as the server gave them (readOnlyHint, destructiveHint, title, …). */
  annotations: Record<string, unknown>;
}

/** One message a server asks the model to continue (sampling/createMessage). */
export interface McpSamplingMessage {
  role: "user" | "assistant";
  /** Text as is; other content (image, audio) described as `[image image/png]`. */
  text: string;
}

export interface McpSamplingRequest {
  requestId: string;
  server: string;
  /** The session whose tool call led to the request, when one is running. */
  sessionId: string | null;
  messages: McpSamplingMessage[];
  systemPrompt: string | null;
  maxTokens: number;
  /** The model the request would run on (`provider · model`) once approved. */
  model: string;
}

export type McpElicitationRequest =
  | {
      requestId: string;
      server: string;
      sessionId: string | null;
      mode: "form";
      message: string;
      /** A flat JSON Schema object of primitive properties (MCP's restricted form schema). */
      requestedSchema: Record<string, unknown>;
    }
  | {
      requestId: string;
      server: string;
      sessionId: string | null;
      mode: "url";
      message: string;
      url: string;
    };

const serverIdParam = Type.String({ pattern: MCP_SERVER_ID_PATTERN });
const requestIdParam = Type.String({ minLength: 1, maxLength: 128 });
const idOnly = params({ id: serverIdParam });

/** What a completion is for: a prompt's argument (by the prompt's name) or a resource template's variable. */
export type McpCompletionRef = { type: "prompt"; name: string } | { type: "resource"; uri: string };

export const mcpMethods = {
  "mcp.list": method(noParams).returns<{ servers: McpServerView[] }>(),
  /**
   * Adds or replaces `mcp_servers.<id>` and (re)starts it. An invalid block → `invalid_params`
   * naming the key (`mcp_servers.<id>.<key>`), nothing written.
   */
  "mcp.save": method(
    params({
      id: Type.String({ maxLength: 200 }),
      // The router checks it is an object; the host checks the block against `mcpServerSchema`.
      server: narrowed(AnyObject()).to<McpServerDocument>(),
    }),
  ).returns<{ server: McpServerView }>(),
  /** Stops the server, removes its block and deletes its secrets from the keychain. */
  "mcp.remove": method(idOnly).returns<EmptyParams>(),
  /** Stops and starts it again now (a server in `error` too), resetting the backoff. */
  "mcp.restart": method(idOnly).returns<EmptyParams>(),
  /**
   * One per-tool switch, written to the block: `enabled` adds/removes the tool in `tools.exclude`
   * (or `tools.include` when the block uses one); `approval: "allow"` adds it to `always_allow`.
   */
  "mcp.setTool": method(
    params({
      id: serverIdParam,
      tool: Type.String({ minLength: 1, maxLength: 256 }),
      enabled: Type.Optional(Type.Boolean()),
      approval: Type.Optional(Enum(["ask", "allow"])),
    }),
  ).returns<{ server: McpServerView }>(),
  /**
   * Stores a `secret_env` / `secret_headers` value in the keychain (account
   * `mcp:<id>:env:<NAME>` / `mcp:<id>:header:<Name>`) and lists its name in the block; an empty
   * value deletes it (and unlists the name). Restarts the server when it runs.
   */
  "mcp.setSecret": method(
    params({
      id: serverIdParam,
      kind: Enum(["env", "header"]),
      name: Type.String({ minLength: 1, maxLength: 256 }),
      value: Type.String({ maxLength: 16384 }),
    }),
  ).returns<{ hasValue: boolean; keyHint: string | null }>(),
  /**
   * Claude Desktop's `{"mcpServers": {…}}`: each entry becomes a block (ids made valid); env
   * values whose name contains KEY, TOKEN, SECRET or PASSWORD (any case) go to the keychain as
   * `secret_env`. An existing id or an entry that fails the schema is skipped with the reason.
   */
  /**
   * Signs in to an `auth: oauth` server: authorization code + PKCE (a client registered
   * dynamically unless `oauth.client_id` names one), the redirect taken on 127.0.0.1. Answers
   * once the authorization URL is open in the system browser (desktop) — web mode shows it for
   * the person to open — or `null` when the stored refresh token signed in without it. How it
   * ends shows in the server's `oauth` (`mcp.changed`). Not an oauth server → `invalid_params`.
   */
  "mcp.signIn": method(idOnly).returns<{ authorizationUrl: string | null }>(),
  /** Deletes the server's tokens and client registration from the keychain and restarts it. */
  "mcp.signOut": method(idOnly).returns<EmptyParams>(),
  "mcp.import": method(params({ json: Type.String({ maxLength: 1_000_000 }) })).returns<{
    added: string[];
    skipped: { id: string; reason: string }[];
  }>(),
  "mcp.approve": method(
    params({ requestId: requestIdParam, decision: Enum(["once", "always", "deny"]) }),
  ).returns<EmptyParams>(),
  "mcp.sampling.respond": method(
    params({ requestId: requestIdParam, decision: Enum(["approve", "deny"]) }),
  ).returns<EmptyParams>(),
  /** Content failing the request's schema → `invalid_params`, and the request stays open. */
  "mcp.elicitation.respond": method(
    params({
      requestId: requestIdParam,
      action: Enum(["accept", "decline", "cancel"]),
      content: Type.Optional(AnyObject()),
    }),
  ).returns<EmptyParams>(),
  /** Requests waiting for an answer (approvals of one session when `sessionId` is given). */
  "mcp.pending": method(
    params({ sessionId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })) }),
  ).returns<McpPendingRequests>(),
  "mcp.resources": method(idOnly).returns<{
    resources: McpResourceView[];
    templates: McpResourceTemplateView[];
  }>(),
  "mcp.readResource": method(
    params({ id: serverIdParam, uri: Type.String({ minLength: 1, maxLength: 8192 }) }),
  ).returns<{ contents: McpResourceContents[] }>(),
  "mcp.prompts": method(idOnly).returns<{ prompts: McpPromptView[] }>(),
  "mcp.getPrompt": method(
    params({
      id: serverIdParam,
      name: Type.String({ minLength: 1, maxLength: 256 }),
      arguments: Type.Optional(MapOf(Type.String({ maxLength: 65536 }))),
    }),
  ).returns<{ description?: string; messages: McpPromptMessage[] }>(),
  /**
   * `completion/complete` suggestions for a prompt's argument or a resource template's variable
   * (`values` empty when the server offers none).
   */
  "mcp.complete": method(
    params({
      id: serverIdParam,
      // The schema lets `ref` name either field; the service reads the one its `type` says.
      ref: narrowed(
        Type.Object({
          type: Enum(["prompt", "resource"]),
          name: Type.Optional(Type.String({ maxLength: 256 })),
          uri: Type.Optional(Type.String({ maxLength: 8192 })),
        }),
      ).to<McpCompletionRef>(),
      argument: params({ name: Type.String({ maxLength: 256 }), value: Type.String({ maxLength: 8192 }) }),
      context: Type.Optional(MapOf(Type.String({ maxLength: 8192 }))),
    }),
  ).returns<{ values: string[]; hasMore: boolean }>(),
  /** The tail of `logs/mcp/<id>.log` (at most 64 KB, redacted) for "View log". */
  "mcp.log": method(idOnly).returns<{ text: string; truncated: boolean }>(),
};
