/**
 * createHost: wires the services of the main process and returns the RPC router every transport
 * (Electron IPC, web mode's WebSocket) dispatches to. Plain Node; never imports electron.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { systemClock, type Clock } from "./clock.js";
import { SettingsStore } from "./config/settings-store.js";
import { mapServiceError } from "./error-mapping.js";
import { EventHub } from "./events.js";
import { ChatEngine } from "./llm/chat-engine.js";
import { createAgentLog, type AgentLog } from "./logging/agent-log.js";
import { ModelService } from "./models/model-service.js";
import { ProvidersService } from "./models/providers-service.js";
import { CommandRegistry } from "./plugins/command-registry.js";
import { findBundledPluginsDir } from "./plugins/discovery.js";
import { HookRegistry } from "./plugins/hook-registry.js";
import { PluginLlmService, type BillUsage } from "./plugins/plugin-llm.js";
import { PluginManager } from "./plugins/plugin-manager.js";
import { pluginHandlers, type OpenFolder } from "./plugins/plugin-rpc-handlers.js";
import { ToolRegistry } from "./plugins/tool-registry.js";
import { SessionService } from "./sessions/session-service.js";
import { sessionHandlers } from "./sessions/session-rpc.js";
import { StoreHandle } from "./sessions/store-handle.js";
import type { Usage } from "./llm/usage.js";
import { createRouter, type HandlerTable, type Router } from "./rpc/router.js";
import { watchKeychain } from "./secrets/keychain-notice.js";
import { createRedactor } from "./secrets/redaction.js";
import type { Vault } from "./secrets/vault.js";

export interface HostOptions {
  home: string;
  vault: Vault;
  mode: "desktop" | "web";
  version: string;
  clock?: Clock;
  /** The app's bundled `plugins/` folder; found next to the app's package.json when absent. */
  bundledPluginsDir?: string | null;
  /** Opens a folder in the OS file manager (desktop: Electron's shell.openPath). */
  openFolder?: OpenFolder;
}

export interface Host {
  router: Router;
  events: EventHub;
  settings: SettingsStore;
  log: AgentLog;
  plugins: PluginManager;
  /** What plugins registered; the chat dispatches slash commands, hooks and tools through these. */
  pluginRegistries: { commands: CommandRegistry; hooks: HookRegistry; tools: ToolRegistry };
  /** The desktop chat (SPEC §9): sessions, turns, busy input, titles. */
  sessions: SessionService;
  /** Bills a model call to a session's usage ledger; plugin calls use `plugin_llm:<id>`. */
  billUsage(sessionId: string, category: string, usage: Usage): void;
  redact(text: string, options?: { force?: boolean }): string;
  close(): Promise<void>;
}

export function createHost(options: HostOptions): Host {
  const clock = options.clock ?? systemClock;
  mkdirSync(options.home, { recursive: true });
  const settings = new SettingsStore({ home: options.home, clock });
  const events = new EventHub();
  const redactor = createRedactor({
    knownKeys: () => options.vault.knownKeys(),
    enabled: () => settings.get().security.redact_secrets,
  });
  const log = createAgentLog(options.home, clock, (text) => redactor.redact(text, { force: true }));
  const providers = new ProvidersService(settings, options.vault);
  const model = new ModelService(settings);
  const engine = new ChatEngine(options.vault, clock);
  const commands = new CommandRegistry();
  const hooks = new HookRegistry(log, clock);
  const tools = new ToolRegistry();
  // Plugin usage is billed to the session store, which opens below (`pluginBilling.bill`).
  const pluginBilling: { bill?: BillUsage } = {};
  const pluginLlm = new PluginLlmService({
    settings,
    engine,
    log,
    billUsage: (sessionId, category, usage) => pluginBilling.bill?.(sessionId, category, usage),
  });
  const plugins = new PluginManager({
    home: options.home,
    bundledDir: options.bundledPluginsDir === undefined ? findBundledPluginsDir() : options.bundledPluginsDir,
    settings,
    commands,
    hooks,
    tools,
    llm: pluginLlm,
    redact: (text, opts) => redactor.redact(text, opts),
    log,
    clock,
    onChange: () => events.emit("plugins.changed", null, {}),
  });
  // The session store opens here; replies a crash left streaming are marked interrupted on open.
  const sessions = new SessionService({
    store: new StoreHandle({ file: join(options.home, "sessions.sqlite"), clock }),
    settings,
    events,
    engine,
    hooks,
    tools,
    commands,
    log,
    clock,
  });
  const billUsage = (sessionId: string, category: string, usage: Usage) =>
    sessions.billUsage(sessionId, category, usage);
  pluginBilling.bill = billUsage;
  void plugins.start().catch((err) => log.write("ERROR", "plugins_start_failed", { error: String(err) }));

  // Teach the redactor every stored key up front; a missing keychain becomes a notice.
  const keychainNotices = watchKeychain(options.vault);

  const unwatch = settings.onChange(() => events.emit("settings.changed", null, {}));

  const handlers: HandlerTable = {
    "host.info": async () => ({
      version: options.version,
      mode: options.mode,
      home: options.home,
      notices: [...settings.notices(), ...sessions.notices(), ...(await keychainNotices())],
    }),
    "settings.get": async () => settings.get() as unknown as Record<string, unknown>,
    "settings.set": async ({ key, value }) => {
      settings.set(key, value);
      return { ok: true };
    },
    "providers.list": () => providers.list(),
    "providers.save": (params) => providers.save(params),
    "providers.remove": ({ id }) => providers.remove(id),
    "providers.models": ({ id }) => providers.models(id),
    "model.set": (params) => model.set(params),
    ...pluginHandlers(plugins, options.openFolder),
    ...sessionHandlers(sessions),
  };

  const router = createRouter(handlers, mapServiceError, (err) =>
    log.write("ERROR", "rpc_error", {
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    }),
  );

  return {
    router,
    events,
    settings,
    log,
    plugins,
    pluginRegistries: { commands, hooks, tools },
    sessions,
    billUsage,
    redact: (text, opts) => redactor.redact(text, opts),
    async close() {
      await plugins.close();
      await sessions.close();
      unwatch();
      settings.close();
    },
  };
}
