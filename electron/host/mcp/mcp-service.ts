/**
 * What the `mcp.*` methods do (docs/contract.md §13.5): read and edit `mcp_servers`, keep secrets
 * in the keychain, and reach a ready server's resources and prompts for the renderer, which never
 * talks to a server itself.
 */
import { ConfigValidationError, type ConfigIssue } from "../config/config-errors.js";
import type { McpServerDocument } from "../config/config-schema.js";
import type { SettingsStore } from "../config/settings-store.js";
import { RpcError } from "../rpc/errors.js";
import type {
  McpPromptMessage,
  McpPromptView,
  McpResourceContents,
  McpResourceTemplateView,
  McpResourceView,
  McpServerView,
} from "../rpc/methods/mcp.js";
import { ImportFormatError, parseClaudeDesktop } from "./mcp-import.js";
import type { McpManager } from "./connections/mcp-manager.js";
import type { McpSecrets, SecretKind } from "./mcp-secrets.js";
import { McpSignInError, type McpOAuth } from "./oauth/oauth-sign-in.js";
import type { PendingRequests } from "./requests/pending-requests.js";
import { serverBlockIssues, toServerConfig, type McpServerConfig } from "./server-config.js";
import { readLogTail, ServerLog } from "./connections/server-log.js";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

export interface McpServiceDeps {
  home: string;
  settings: SettingsStore;
  manager: McpManager;
  secrets: McpSecrets;
  pending: PendingRequests;
  oauth: McpOAuth;
  redact: (text: string) => string;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

export class McpService {
  constructor(private readonly deps: McpServiceDeps) {}

  async list(): Promise<{ servers: McpServerView[] }> {
    return { servers: await this.deps.manager.views(this.hint) };
  }

  async save(id: string, block: McpServerDocument): Promise<{ server: McpServerView }> {
    const issues = serverBlockIssues(id, block);
    if (issues.length > 0) throw new ConfigValidationError(issues as [ConfigIssue, ...ConfigIssue[]]);
    this.deps.settings.update((doc) => {
      doc.mcp_servers = { ...doc.mcp_servers, [id]: structuredClone(block) };
    });
    return { server: await this.view(id) };
  }

  async remove(id: string): Promise<Record<string, never>> {
    this.requireBlock(id);
    this.deps.settings.update((doc) => {
      const { [id]: _gone, ...rest } = doc.mcp_servers ?? {};
      doc.mcp_servers = rest;
    });
    this.deps.pending.dropServer(id);
    this.deps.oauth.forget(id);
    await this.deps.secrets.deleteAll(id);
    return {};
  }

  async restart(id: string): Promise<Record<string, never>> {
    this.requireBlock(id);
    await this.deps.manager.restart(id);
    return {};
  }

  /** docs/contract.md §13.1 `auth: oauth`: see `mcp.signIn` in the methods table. */
  async signIn(id: string): Promise<{ authorizationUrl: string | null }> {
    const config = this.oauthConfig(id);
    try {
      return await this.deps.oauth.signIn(config);
    } catch (error) {
      if (!(error instanceof McpSignInError)) throw error;
      throw new RpcError(error.keychain ? "keychain_unavailable" : "provider_error", error.message);
    }
  }

  async signOut(id: string): Promise<Record<string, never>> {
    await this.deps.oauth.signOut(this.oauthConfig(id));
    return {};
  }

  private oauthConfig(id: string): McpServerConfig {
    this.requireBlock(id);
    const config =
      this.deps.manager.get(id)?.config ?? toServerConfig(id, this.deps.settings.get().mcp_servers[id]!);
    if (!config.oauth) {
      throw new RpcError(
        "invalid_params",
        `MCP server '${id}' does not sign in with OAuth: set \`auth: oauth\` on its URL block first.`,
        { key: "id" },
      );
    }
    return config;
  }

  async setTool(
    id: string,
    tool: string,
    change: { enabled?: boolean; approval?: "ask" | "allow" },
  ): Promise<{ server: McpServerView }> {
    this.requireBlock(id);
    this.deps.settings.update((doc) => {
      const block = doc.mcp_servers![id]!;
      if (change.enabled !== undefined) {
        const include = block.tools?.include ?? [];
        const exclude = block.tools?.exclude ?? [];
        const tools =
          include.length > 0
            ? { ...block.tools, include: toggle(include, tool, change.enabled) }
            : { ...block.tools, exclude: toggle(exclude, tool, !change.enabled) };
        block.tools = tools;
      }
      if (change.approval !== undefined) {
        block.always_allow = toggle(block.always_allow ?? [], tool, change.approval === "allow");
      }
    });
    return { server: await this.view(id) };
  }

  async setSecret(
    id: string,
    kind: SecretKind,
    name: string,
    value: string,
  ): Promise<{ hasValue: boolean; keyHint: string | null }> {
    this.requireBlock(id);
    const pattern = kind === "env" ? ENV_NAME : HEADER_NAME;
    if (!pattern.test(name)) {
      throw new RpcError(
        "invalid_params",
        `"${name}" is not a valid ${kind === "env" ? "environment variable" : "HTTP header"} name.`,
        { key: "name" },
      );
    }
    const listKey = kind === "env" ? "secret_env" : "secret_headers";
    const listed = (this.deps.settings.get().mcp_servers[id]?.[listKey] ?? []).includes(name);
    if (value === "") await this.deps.secrets.delete(id, kind, name);
    else await this.deps.secrets.set(id, kind, name, value);
    if (listed !== (value !== "")) {
      // Listing or unlisting the name changes the block: the server restarts with it.
      this.deps.settings.update((doc) => {
        const block = doc.mcp_servers![id]!;
        block[listKey] = toggle(block[listKey] ?? [], name, value !== "");
        if (block[listKey]!.length === 0) delete block[listKey];
      });
    } else if (this.deps.manager.get(id)?.config.enabled) {
      void this.deps.manager.restart(id);
    }
    const keyHint = await this.hint(id, kind, name);
    return { hasValue: keyHint !== null, keyHint };
  }

  async import(json: string): Promise<{ added: string[]; skipped: { id: string; reason: string }[] }> {
    let parsed: ReturnType<typeof parseClaudeDesktop>;
    try {
      parsed = parseClaudeDesktop(json);
    } catch (error) {
      if (error instanceof ImportFormatError)
        throw new RpcError("invalid_params", error.message, { key: "json" });
      throw error;
    }
    const added: string[] = [];
    const skipped = [...parsed.skipped];
    const existing = this.deps.settings.get().mcp_servers;
    for (const server of parsed.servers) {
      if (server.id in existing || added.includes(server.id)) {
        skipped.push({ id: server.id, reason: `a server with the id "${server.id}" already exists` });
        continue;
      }
      const issues = serverBlockIssues(server.id, server.block);
      if (issues.length > 0) {
        skipped.push({ id: server.id, reason: issues.map((i) => i.message).join("; ") });
        continue;
      }
      // Secrets first: the server starts as soon as its block is written.
      for (const [name, value] of Object.entries(server.secrets))
        await this.deps.secrets.set(server.id, "env", name, value);
      for (const [name, value] of Object.entries(server.headerSecrets))
        await this.deps.secrets.set(server.id, "header", name, value);
      added.push(server.id);
    }
    if (added.length > 0) {
      this.deps.settings.update((doc) => {
        const blocks = { ...doc.mcp_servers };
        for (const server of parsed.servers) if (added.includes(server.id)) blocks[server.id] = server.block;
        doc.mcp_servers = blocks;
      });
    }
    return { added, skipped };
  }

  log(id: string): { text: string; truncated: boolean } {
    this.requireBlock(id);
    const file = new ServerLog(join(this.deps.home, "logs"), id, this.deps.redact).file;
    return readLogTail(file, this.deps.redact);
  }

  async resources(
    id: string,
  ): Promise<{ resources: McpResourceView[]; templates: McpResourceTemplateView[] }> {
    const client = await this.client(id);
    const capabilities = client.getServerCapabilities() ?? {};
    if (!capabilities.resources) return { resources: [], templates: [] };
    const resources: McpResourceView[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      resources.push(...page.resources.map(pick));
      cursor = page.nextCursor;
    } while (cursor && resources.length < 10_000);
    const templates = await client
      .listResourceTemplates()
      .then((r) => r.resourceTemplates.map((t) => ({ ...pick(t), uriTemplate: t.uriTemplate })))
      .catch(() => []);
    return {
      resources,
      templates: templates.map(({ uri: _uri, ...rest }) => rest) as McpResourceTemplateView[],
    };
  }

  async readResource(id: string, uri: string): Promise<{ contents: McpResourceContents[] }> {
    const client = await this.client(id);
    const result = await client.readResource({ uri });
    return { contents: result.contents as McpResourceContents[] };
  }

  async prompts(id: string): Promise<{ prompts: McpPromptView[] }> {
    const client = await this.client(id);
    if (!client.getServerCapabilities()?.prompts) return { prompts: [] };
    const { prompts } = await client.listPrompts();
    return {
      prompts: prompts.map((p) => ({
        name: p.name,
        ...(p.title ? { title: p.title } : {}),
        ...(p.description ? { description: p.description } : {}),
        arguments: (p.arguments ?? []).map((a) => ({
          name: a.name,
          ...(a.description ? { description: a.description } : {}),
          required: a.required === true,
        })),
      })),
    };
  }

  async getPrompt(
    id: string,
    name: string,
    args: Record<string, string> = {},
  ): Promise<{ description?: string; messages: McpPromptMessage[] }> {
    const client = await this.client(id);
    const result = await client.getPrompt({ name, arguments: args });
    return {
      ...(result.description ? { description: result.description } : {}),
      messages: result.messages as McpPromptMessage[],
    };
  }

  async complete(
    id: string,
    ref: { type: "prompt"; name: string } | { type: "resource"; uri: string },
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ): Promise<{ values: string[]; hasMore: boolean }> {
    const client = await this.client(id);
    if (!client.getServerCapabilities()?.completions) return { values: [], hasMore: false };
    const result = await client.complete({
      ref:
        ref.type === "prompt"
          ? { type: "ref/prompt", name: ref.name }
          : { type: "ref/resource", uri: ref.uri },
      argument,
      ...(context ? { context: { arguments: context } } : {}),
    });
    return { values: result.completion.values, hasMore: result.completion.hasMore === true };
  }

  private async client(id: string): Promise<Client> {
    this.requireBlock(id);
    const connection = this.deps.manager.get(id);
    if (!connection || !connection.config.enabled) {
      throw new RpcError("not_found", `MCP server '${id}' is disabled; enable it first.`);
    }
    try {
      return await connection.ready();
    } catch (error) {
      throw new RpcError("not_found", error instanceof Error ? error.message : String(error));
    }
  }

  private async view(id: string): Promise<McpServerView> {
    const doc = this.deps.settings.get().mcp_servers[id]!;
    return this.deps.manager.view(id, doc, this.deps.manager.get(id) ?? null, this.hint);
  }

  private requireBlock(id: string): void {
    if (!Object.hasOwn(this.deps.settings.get().mcp_servers, id)) {
      throw new RpcError("not_found", `No MCP server has the id "${id}".`);
    }
  }

  private readonly hint = (id: string, kind: SecretKind, name: string) =>
    this.deps.secrets.hint(id, kind, name);
}

function toggle(list: readonly string[], item: string, present: boolean): string[] {
  const without = list.filter((entry) => entry !== item);
  return present ? [...without, item] : without;
}

function pick(resource: {
  uri?: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}): McpResourceView {
  return {
    uri: resource.uri ?? "",
    name: resource.name,
    ...(resource.title ? { title: resource.title } : {}),
    ...(resource.description ? { description: resource.description } : {}),
    ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
  };
}
