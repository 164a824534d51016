/**
 * The host's MCP client side, wired once (docs/contract.md §13): the connection manager, the chat's
 * MCP tools, the person's pending requests, sampling on the `mcp` slot, elicitation and roots.
 * Servers start on `start()`, which the host calls once it serves (never during start-up).
 */
import { pathToFileURL } from "node:url";
import type { SettingsStore } from "../config/settings-store.js";
import type { EventHub } from "../events.js";
import type { ChatEngine } from "../llm/chat-engine.js";
import type { Usage } from "../llm/usage.js";
import type { AgentLog } from "../logging/agent-log.js";
import type { AuxiliaryTaskRegistry } from "../models/auxiliary-tasks.js";
import type { Vault } from "../secrets/vault.js";
import { McpChatTools } from "./tools/chat-tools.js";
import { ElicitationHandler } from "./requests/elicitation.js";
import { McpManager } from "./connections/mcp-manager.js";
import { McpSecrets } from "./mcp-secrets.js";
import { McpOAuth } from "./oauth/oauth-sign-in.js";
import { OAuthStore } from "./oauth/oauth-store.js";
import { McpService } from "./mcp-service.js";
import { PendingRequests } from "./requests/pending-requests.js";
import { SamplingHandler } from "./requests/sampling.js";

export interface McpHostDeps {
  home: string;
  settings: SettingsStore;
  events: EventHub;
  vault: Vault;
  engine: Pick<ChatEngine, "complete">;
  slots: AuxiliaryTaskRegistry;
  log: AgentLog;
  redact: (text: string) => string;
  /** Bills sampling to a session (late-bound: the sessions open after this). */
  bill: (sessionId: string, category: string, usage: Usage) => void;
  /** Opens an OAuth sign-in's authorization URL in the system browser (desktop); web mode shows it. */
  openExternal?: (url: string) => Promise<void>;
  /** Tests: a fixed PATH lookup, short restart delays and a short sign-in timeout. */
  pathValue?: () => Promise<string>;
  backoffStartMs?: number;
  signInTimeoutMs?: number;
}

export interface McpHost {
  manager: McpManager;
  service: McpService;
  pending: PendingRequests;
  chatTools: McpChatTools;
  oauth: McpOAuth;
  start(): void;
  close(): Promise<void>;
}

export function createMcpHost(deps: McpHostDeps): McpHost {
  const secrets = new McpSecrets(deps.vault);
  const pending = new PendingRequests(deps.events);
  const late: { chatTools?: McpChatTools } = {};
  const sessionOf = (serverId: string) => late.chatTools?.sessionOf(serverId) ?? null;
  const sampling = new SamplingHandler({
    settings: deps.settings,
    slots: deps.slots,
    engine: deps.engine,
    pending,
    log: deps.log,
    bill: deps.bill,
    sessionOf,
  });
  const elicitation = new ElicitationHandler({ pending, sessionOf });
  const oauth = new McpOAuth({
    store: new OAuthStore(secrets),
    ...(deps.openExternal ? { openExternal: deps.openExternal } : {}),
    restart: (id) => manager.restart(id),
    onChange: () => deps.events.emit("mcp.changed", null, {}),
    redact: deps.redact,
    ...(deps.signInTimeoutMs !== undefined ? { signInTimeoutMs: deps.signInTimeoutMs } : {}),
  });
  const manager: McpManager = new McpManager({
    home: deps.home,
    settings: deps.settings,
    events: deps.events,
    secrets,
    redact: deps.redact,
    oauth,
    handlers: {
      roots: (config) => ({
        roots: config.roots.map((path) => ({ uri: pathToFileURL(path).href, name: path })),
      }),
      sampling: (config, params, signal) => sampling.handle(config, params, signal),
      elicitation: (config, params, signal) => elicitation.handle(config, params, signal),
    },
    ...(deps.pathValue ? { pathValue: deps.pathValue } : {}),
    ...(deps.backoffStartMs !== undefined ? { backoffStartMs: deps.backoffStartMs } : {}),
  });
  const chatTools = new McpChatTools({ manager, pending, events: deps.events, settings: deps.settings });
  late.chatTools = chatTools;
  const service = new McpService({
    home: deps.home,
    settings: deps.settings,
    manager,
    secrets,
    pending,
    oauth,
    redact: deps.redact,
  });
  return {
    manager,
    service,
    pending,
    chatTools,
    oauth,
    start: () => manager.start(),
    close: async () => {
      oauth.close();
      await manager.close();
    },
  };
}
