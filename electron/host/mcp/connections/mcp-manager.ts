/**
 * Every configured MCP server's connection (docs/contract.md §13.2): started in parallel once the
 * host serves, kept in step with `mcp_servers` (a changed block restarts its server, a removed one
 * stops, a disabled one shows `disabled`), and announced with `mcp.status` / `mcp.changed`.
 */
import { join } from "node:path";
import type { McpServerDocument } from "../../config/config-schema.js";
import type { SettingsStore } from "../../config/settings-store.js";
import type { EventHub } from "../../events.js";
import type { McpServerView, McpToolView } from "../../rpc/methods/mcp.js";
import type { McpSecrets } from "../mcp-secrets.js";
import type { McpOAuth } from "../oauth/oauth-sign-in.js";
import { ServerConnection } from "./server-connection.js";
import { toServerConfig, type McpServerConfig } from "../server-config.js";
import { ServerLog } from "./server-log.js";
import type { ServerRequestHandlers } from "./server-requests.js";
import { loginShellPath } from "./shell-path.js";
import { qualifiedToolName, toolEnabled } from "../tools/tool-names.js";
import { helperTools } from "../tools/helper-tools.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

export interface McpManagerDeps {
  home: string;
  settings: SettingsStore;
  events: EventHub;
  secrets: McpSecrets;
  /** Masks secrets (with force) in server logs and errors. */
  redact: (text: string) => string;
  handlers: ServerRequestHandlers;
  /** OAuth sign-in of `auth: oauth` servers. */
  oauth: McpOAuth;
  pathValue?: () => Promise<string>;
  backoffStartMs?: number;
}

interface Entry {
  /** The block as last started, to tell an edit from a no-op. */
  block: string;
  connection: ServerConnection;
}

/** A tool as the chat sees it. */
export interface ChatTool {
  qualifiedName: string;
  connection: ServerConnection;
  tool: Tool;
}

export class McpManager {
  private readonly entries = new Map<string, Entry>();
  private started = false;
  private unwatch: (() => void) | null = null;

  constructor(private readonly deps: McpManagerDeps) {}

  /** Starts every enabled server (idempotent); later edits of `mcp_servers` are followed. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.unwatch = this.deps.settings.onChange(() => this.reconcile());
    this.reconcile();
  }

  /** Brings the connections in line with the settings; never waits for a server. */
  reconcile(): void {
    if (!this.started) return;
    this.index = null;
    const blocks = this.deps.settings.get().mcp_servers;
    for (const [id, entry] of [...this.entries]) {
      if (!Object.hasOwn(blocks, id)) {
        this.entries.delete(id);
        void entry.connection.stop();
        this.deps.events.emit("mcp.changed", null, {});
      }
    }
    for (const [id, doc] of Object.entries(blocks)) {
      const block = restartKey(doc);
      const existing = this.entries.get(id);
      if (existing?.block === block) {
        // Approval and tool switches apply to the next call; the server keeps running.
        if (JSON.stringify(existing.connection.config) !== JSON.stringify(toServerConfig(id, doc))) {
          existing.connection.deps.config = toServerConfig(id, doc);
          this.deps.events.emit("mcp.changed", null, {});
        }
        continue;
      }
      if (existing) void existing.connection.stop();
      const connection = this.connect(id, doc);
      this.entries.set(id, { block, connection });
      this.deps.events.emit("mcp.changed", null, {});
      if (connection.config.enabled) void connection.start();
      else void connection.stop();
    }
  }

  get(id: string): ServerConnection | undefined {
    return this.entries.get(id)?.connection;
  }

  ids(): string[] {
    return [...this.entries.keys()];
  }

  /** Stops and starts it again now, with the backoff reset. */
  async restart(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return;
    await entry.connection.stop();
    const connection = this.connect(id, this.deps.settings.get().mcp_servers[id] ?? {});
    this.entries.set(id, { block: entry.block, connection });
    this.index = null;
    if (connection.config.enabled) await connection.start();
  }

  /** Every ready server's enabled tools under their qualified names (docs/contract.md §13.2). */
  chatTools(): ChatTool[] {
    return this.knownTools((connection) => connection.status === "ready");
  }

  /**
   * A tool the model named, on a ready server or one that is restarting (its tools as last
   * listed): the call then waits for the restart instead of failing.
   */
  findTool(qualifiedName: string): ChatTool | undefined {
    // Looked up on every call: an index, dropped whenever a status, a list or a block changes.
    this.index ??= new Map(
      this.knownTools((c) => c.config.enabled && c.status !== "disabled").map((t) => [t.qualifiedName, t]),
    );
    return this.index.get(qualifiedName);
  }

  private index: Map<string, ChatTool> | null = null;

  private knownTools(include: (connection: ServerConnection) => boolean): ChatTool[] {
    const tools: ChatTool[] = [];
    for (const { connection } of this.entries.values()) {
      if (!include(connection)) continue;
      const helpers = helperTools(connection.client?.getServerCapabilities() ?? {}, connection.lists.tools);
      for (const tool of [...connection.lists.tools, ...helpers]) {
        if (!toolEnabled(connection.config, tool.name)) continue;
        tools.push({ qualifiedName: qualifiedToolName(connection.config.id, tool.name), connection, tool });
      }
    }
    return tools;
  }

  async views(
    secretHint: (id: string, kind: "env" | "header", name: string) => Promise<string | null>,
  ): Promise<McpServerView[]> {
    const views: McpServerView[] = [];
    const blocks = this.deps.settings.get().mcp_servers;
    for (const [id, doc] of Object.entries(blocks)) {
      const connection = this.entries.get(id)?.connection ?? null;
      views.push(await this.view(id, doc, connection, secretHint));
    }
    return views;
  }

  async view(
    id: string,
    doc: McpServerDocument,
    connection: ServerConnection | null,
    secretHint: (id: string, kind: "env" | "header", name: string) => Promise<string | null>,
  ): Promise<McpServerView> {
    const config = connection?.config ?? toServerConfig(id, doc);
    const secrets = async (kind: "env" | "header", names: readonly string[]) =>
      Promise.all(
        names.map(async (name) => {
          const keyHint = await secretHint(id, kind, name);
          return { name, hasValue: keyHint !== null, keyHint };
        }),
      );
    // An enabled server not started yet (the host is still warming up) is about to start.
    const status = !config.enabled
      ? "disabled"
      : !connection || connection.status === "disabled"
        ? "starting"
        : connection.status;
    return {
      id,
      transport: config.transport,
      enabled: config.enabled,
      status,
      ...(status === "error" && connection?.error ? { error: connection.error } : {}),
      ...(connection?.client?.getServerVersion() ? { serverInfo: serverInfoOf(connection) } : {}),
      tools: (connection?.status === "ready" ? connection.lists.tools : []).map((tool) =>
        toolView(config, tool),
      ),
      resources: connection?.lists.resources ?? 0,
      prompts: connection?.lists.prompts ?? 0,
      config: structuredClone(doc) as McpServerDocument,
      approval: config.approval,
      secrets: {
        env: await secrets("env", config.secretEnv),
        headers: await secrets("header", config.secretHeaders),
      },
      ...(config.oauth ? { oauth: await this.deps.oauth.view(config) } : {}),
      restarts: connection?.restarts ?? 0,
    };
  }

  async close(): Promise<void> {
    this.unwatch?.();
    this.unwatch = null;
    const stopping = [...this.entries.values()].map((entry) => entry.connection.stop());
    this.entries.clear();
    await Promise.all(stopping);
  }

  private connect(id: string, doc: McpServerDocument): ServerConnection {
    const config = toServerConfig(id, doc);
    const log = new ServerLog(join(this.deps.home, "logs"), id, this.deps.redact);
    const connection: ServerConnection = new ServerConnection({
      config,
      log,
      pathValue: this.deps.pathValue ?? loginShellPath,
      secrets: (kind, names) => this.deps.secrets.values(id, kind, names),
      handlers: this.deps.handlers,
      oauth: {
        provider: (config) => this.deps.oauth.connectionProvider(config),
        signInNeeded: (serverId) => this.deps.oauth.signInNeeded(serverId),
      },
      ...(this.deps.backoffStartMs !== undefined ? { backoffStartMs: this.deps.backoffStartMs } : {}),
      onChange: (what) => {
        // A replaced connection's late news is not news.
        if (this.entries.get(id)?.connection !== connection) return;
        this.index = null;
        if (what === "status") {
          this.deps.events.emit("mcp.status", null, {
            id,
            status: connection.status,
            ...(connection.error ? { error: connection.error } : {}),
          });
        }
        this.deps.events.emit("mcp.changed", null, {});
      },
    });
    return connection;
  }
}

/** The block without the keys that apply per call (they never restart a server). */
function restartKey(doc: McpServerDocument): string {
  const {
    always_allow: _allow,
    tools: _tools,
    approval: _approval,
    trust: _trust,
    timeout: _timeout,
    ...rest
  } = doc;
  return JSON.stringify(rest);
}

export function toolView(config: McpServerConfig, tool: Tool): McpToolView {
  const readOnly = tool.annotations?.readOnlyHint === true;
  return {
    name: tool.name,
    qualifiedName: qualifiedToolName(config.id, tool.name),
    description: tool.description ?? tool.annotations?.title ?? "",
    enabled: toolEnabled(config, tool.name),
    readOnly,
    approval: needsApproval(config, tool) ? "ask" : "allow",
  };
}

/** docs/contract.md §13.3 step 2: ask for every call not always allowed; read_only spares read-only tools. */
export function needsApproval(config: McpServerConfig, tool: Tool): boolean {
  if (config.alwaysAllow.includes(tool.name)) return false;
  if (config.approval === "never") return false;
  if (config.approval === "read_only") return tool.annotations?.readOnlyHint !== true;
  return true;
}

function serverInfoOf(connection: ServerConnection): { name: string; version: string; title?: string } {
  const info = connection.client!.getServerVersion()!;
  return { name: info.name, version: info.version, ...(info.title ? { title: info.title } : {}) };
}
