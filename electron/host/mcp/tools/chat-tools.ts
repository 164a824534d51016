/**
 * MCP tools in a chat turn (docs/contract.md §13.3): arguments checked against the tool's
 * inputSchema, the approval asked when the server's `approval` says so, the call made with a
 * progress token, a timeout and Stop's `notifications/cancelled`, and the result converted for the
 * model. Every call ends (result, error, timeout, cancel); nothing here throws.
 */
import { randomUUID } from "node:crypto";
import { Ajv, type ValidateFunction } from "ajv";
import { McpError, ErrorCode, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { SettingsStore } from "../../config/settings-store.js";
import type { EventHub } from "../../events.js";
import type { ToolCall, ToolDefinition } from "../../llm/chat-request.js";
import type { McpToolCallState } from "../../rpc/events.js";
import type {
  ExternalToolRun,
  ExternalTools,
  ExternalToolScope,
} from "../../sessions/turns/external-tools.js";
import type { ChatTool, McpManager } from "../connections/mcp-manager.js";
import { needsApproval } from "../connections/mcp-manager.js";
import type { PendingRequests } from "../requests/pending-requests.js";
import { isAuthRequired, type ServerConnection } from "../connections/server-connection.js";
import { convertToolResult } from "./tool-result.js";
import { callHelper, isHelper, type HelperName } from "./helper-tools.js";
import { MCP_TOOL_PREFIX } from "./tool-names.js";

export const DENIED_TEXT = "The user denied this tool call.";

export class McpChatTools implements ExternalTools {
  private readonly ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  /** Per tool as listed (a re-listed tool is a new object, so a changed schema is compiled again). */
  private readonly validators = new WeakMap<Tool, ValidateFunction | null>();
  /** Sessions whose tool calls run on each server now, latest last (sampling is billed to them). */
  private readonly running = new Map<string, string[]>();
  private readonly requestIds = new Set<string>();

  constructor(
    private readonly deps: {
      manager: McpManager;
      pending: PendingRequests;
      events: EventHub;
      settings: SettingsStore;
    },
  ) {}

  owns(name: string): boolean {
    return name.startsWith(MCP_TOOL_PREFIX);
  }

  definitions(): ToolDefinition[] {
    return this.deps.manager.chatTools().map(({ qualifiedName, tool }) => ({
      type: "function",
      function: {
        name: qualifiedName,
        description: tool.description ?? tool.annotations?.title ?? tool.name,
        parameters: tool.inputSchema as Record<string, unknown>,
      },
    }));
  }

  /** The session whose tool call on this server runs now (the latest one), if any. */
  sessionOf(serverId: string): string | null {
    return this.running.get(serverId)?.at(-1) ?? null;
  }

  /** Denies the session's waiting approvals (the person sent a new message). */
  interruptWaiting(sessionId: string): void {
    this.deps.pending.denyApprovals(sessionId);
  }

  async run(call: ToolCall, scope: ExternalToolScope): Promise<ExternalToolRun> {
    const name = call.function.name;
    const found = this.deps.manager.findTool(name);
    if (!found) {
      return {
        status: "error",
        content: `Error: the MCP tool ${name} is not available now (its server is not ready or the tool was turned off).`,
      };
    }
    let args: Record<string, unknown>;
    try {
      const parsed: unknown = call.function.arguments.trim() ? JSON.parse(call.function.arguments) : {};
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        throw new Error("not an object");
      args = parsed as Record<string, unknown>;
    } catch {
      return {
        status: "error",
        content: `Error: the arguments for ${name} are not valid JSON; send them again as a JSON object.`,
      };
    }
    const invalid = this.checkArguments(found.tool, args);
    if (invalid)
      return {
        status: "error",
        content: `Error: the arguments for ${name} do not match its schema: ${invalid}. Fix them and call it again.`,
      };

    const requestId = this.requestIdFor(call);
    const state = (next: McpToolCallState["state"], detail?: string) =>
      this.deps.events.emit("mcp.tool.call", scope.sessionId, {
        requestId,
        server: found.connection.config.id,
        tool: found.tool.name,
        qualifiedName: name,
        state: next,
        ...(detail ? { detail } : {}),
      });
    const meta = (final: McpToolCallState["state"], extra: Record<string, unknown> = {}) => ({
      mcp: { requestId, server: found.connection.config.id, tool: found.tool.name, state: final, ...extra },
    });
    try {
      if (needsApproval(found.connection.config, found.tool)) {
        state("waiting_approval");
        const decision = await this.deps.pending.approval(
          {
            requestId,
            sessionId: scope.sessionId,
            server: found.connection.config.id,
            tool: found.tool.name,
            qualifiedName: name,
            description: found.tool.description ?? "",
            arguments: args,
            annotations: { ...(found.tool.annotations ?? {}) },
          },
          scope.signal,
        );
        if (scope.signal.aborted) {
          state("cancelled");
          return { status: "aborted", content: "" };
        }
        if (decision === "deny") {
          state("denied", DENIED_TEXT);
          return { status: "blocked", content: DENIED_TEXT, meta: meta("denied") };
        }
        if (decision === "always") this.allowForGood(found.connection.config.id, found.tool.name);
      }
      state("running");
      const result = await this.call(found, args, requestId, scope);
      const converted = convertToolResult(result);
      const final = converted.isError ? "error" : "done";
      state(final, converted.isError ? converted.text.slice(0, 200) : undefined);
      return {
        status: converted.isError ? "error" : "ok",
        content: converted.isError ? `Error: ${converted.text}` : converted.text,
        meta: meta(final, converted.links.length ? { links: converted.links } : {}),
        ...(converted.images.length ? { images: converted.images } : {}),
      };
    } catch (error) {
      if (scope.signal.aborted) {
        state("cancelled");
        return { status: "aborted", content: "" };
      }
      const timedOut = error instanceof McpError && error.code === ErrorCode.RequestTimeout;
      const text = timedOut
        ? `${name} timed out after ${Math.round(found.connection.config.callTimeoutMs / 1000)} s; the call was cancelled. Try again, or raise \`timeout\` for MCP server '${found.connection.config.id}'.`
        : `${name} failed: ${this.failure(found.connection, error)}`;
      state(timedOut ? "timeout" : "error", text);
      return { status: "error", content: `Error: ${text}`, meta: meta(timedOut ? "timeout" : "error") };
    } finally {
      this.requestIds.delete(requestId);
    }
  }

  /** The call itself; an HTTP session the server forgot (it restarted) is renewed and the call sent again once. */
  private async call(
    found: ChatTool,
    args: Record<string, unknown>,
    requestId: string,
    scope: ExternalToolScope,
  ): Promise<CallToolResult> {
    const { connection } = found;
    const serverId = connection.config.id;
    const sessions = this.running.get(serverId) ?? [];
    sessions.push(scope.sessionId);
    this.running.set(serverId, sessions);
    // The SDK leaves its abort listener on the signal it is given: each call gets its own, linked
    // to the turn's and unlinked after, so a long turn does not pile listeners on the turn's signal.
    const perCall = new AbortController();
    const forward = () => perCall.abort(scope.signal.reason);
    if (scope.signal.aborted) forward();
    else scope.signal.addEventListener("abort", forward, { once: true });
    const signal = perCall.signal;
    const send = async (client: Awaited<ReturnType<ServerConnection["ready"]>>) =>
      isHelper(found.tool)
        ? callHelper(client, found.tool.name as HelperName, args, {
            signal,
            timeout: connection.config.callTimeoutMs,
          })
        : ((await client.callTool({ name: found.tool.name, arguments: args }, undefined, {
            signal,
            timeout: connection.config.callTimeoutMs,
            onprogress: (progress) =>
              this.deps.events.emit("mcp.tool.progress", scope.sessionId, {
                requestId,
                progress: progress.progress,
                ...(progress.total !== undefined ? { total: progress.total } : {}),
                ...(progress.message !== undefined ? { message: progress.message } : {}),
              }),
          })) as CallToolResult);
    try {
      try {
        return await send(await connection.ready());
      } catch (error) {
        if (!sessionGone(error) || scope.signal.aborted) throw error;
        return await send(await connection.renewSession());
      }
    } finally {
      scope.signal.removeEventListener("abort", forward);
      const index = sessions.lastIndexOf(scope.sessionId);
      if (index >= 0) sessions.splice(index, 1);
    }
  }

  private failure(connection: ServerConnection, error: unknown): string {
    if (connection.config.oauth && isAuthRequired(error)) {
      connection.authLost();
      return `the MCP server '${connection.config.id}' needs sign-in: the person can sign in from Settings → MCP, then the call can be tried again`;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (/Connection closed/i.test(message)) {
      return `the MCP server '${connection.config.id}' stopped during the call${connection.error ? ` (${connection.error})` : ""}; it is being restarted, so the call can be tried again`;
    }
    return message;
  }

  /** The ajv errors in a sentence, or null when the arguments fit. */
  private checkArguments(tool: Tool, args: Record<string, unknown>): string | null {
    let validate = this.validators.get(tool);
    if (validate === undefined) {
      try {
        validate = this.ajv.compile(tool.inputSchema);
      } catch {
        validate = null; // A schema ajv can't compile is the server's problem; the server checks.
      }
      this.validators.set(tool, validate);
    }
    if (!validate || validate(args)) return null;
    return (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (e) =>
          `${e.instancePath ? `${e.instancePath.slice(1).replace(/\//g, ".")} ` : ""}${e.message ?? "is invalid"}${e.keyword === "additionalProperties" ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : ""}`,
      )
      .join("; ");
  }

  private requestIdFor(call: ToolCall): string {
    const id = call.id && !this.requestIds.has(call.id) ? call.id : randomUUID();
    this.requestIds.add(id);
    return id;
  }

  /** "Always allow": the tool joins the server's `always_allow` in config.yaml. */
  private allowForGood(serverId: string, tool: string): void {
    this.deps.settings.update((doc) => {
      const block = doc.mcp_servers?.[serverId];
      if (!block) return;
      const allowed = block.always_allow ?? [];
      if (!allowed.includes(tool)) block.always_allow = [...allowed, tool];
    });
  }
}

/** A 404, or a 400 about the session id: the server restarted and forgot the session (§13.2). */
function sessionGone(error: unknown): boolean {
  if (!(error instanceof StreamableHTTPError)) return false;
  return error.code === 404 || (error.code === 400 && /session/i.test(error.message));
}
