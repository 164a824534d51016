/**
 * createHost: wires the services of the main process and returns the RPC router every transport
 * (Electron IPC, web mode's WebSocket) dispatches to. Plain Node; never imports electron.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ActivityMonitor } from "./activity-monitor.js";
import { systemClock, type Clock } from "./clock.js";
import { SettingsStore } from "./config/settings-store.js";
import { HermesImportService } from "./config/hermes-import/hermes-import.js";
import { mapServiceError } from "./error-mapping.js";
import { EventHub } from "./events.js";
import { ChatEngine } from "./llm/chat-engine.js";
import { createMcpHost, type McpHost } from "./mcp/mcp-host.js";
import { mcpHandlers } from "./mcp/mcp-rpc.js";
import { createAgentLog, type AgentLog } from "./logging/agent-log.js";
import { AuxiliaryCaller } from "./llm/auxiliary-call.js";
import { resolveAuxiliaryRoute } from "./models/auxiliary-route.js";
import { AuxiliaryTaskRegistry } from "./models/auxiliary-tasks.js";
import { ModelInfoCache } from "./models/model-capabilities.js";
import { ModelService } from "./models/model-service.js";
import { ProvidersService } from "./providers/providers-service.js";
import { LocalServerDiscovery, type DiscoveryOptions } from "./providers/discovery/discover.js";
import { ConsentService } from "./plugins/capabilities/consent-service.js";
import { SideQuestionLeases } from "./plugins/capabilities/side-question-lease.js";
import { ForkService } from "./plugins/capabilities/session-fork.js";
import type { PluginForks } from "./plugins/runtime/host-half/ctx-host.js";
import { SideQuestions } from "./plugins/capabilities/side-question.js";
import { CommandRegistry } from "./plugins/registries/command-registry.js";
import { findBundledPluginsDir } from "./plugins/catalog/discovery.js";
import { HookRegistry } from "./plugins/registries/hook-registry.js";
import { claimsDir, IdleClaims } from "./plugins/idle/idle-claims.js";
import { IdleTaskScheduler } from "./plugins/idle/idle-scheduler.js";
import { idleTaskViews } from "./plugins/idle/idle-task-views.js";
import { PluginLlmService, type BillUsage } from "./plugins/llm/plugin-llm.js";
import { RuntimeCounterEvents } from "./plugins/budgets/runtime-counter-events.js";
import { PluginBudgets } from "./plugins/budgets/plugin-budget.js";
import { BUDGET_FILE_NAME } from "./plugins/budgets/budget-file.js";
import { PluginManager } from "./plugins/manager/plugin-manager.js";
import type { CallDeadlines } from "./plugins/runtime/host-half/ctx-host.js";
import { PluginRuntime } from "./plugins/runtime/plugin-runtime.js";
import { DEFAULT_HEAP_MB, expectedDefaultWorkers } from "./plugins/manager/plugin-manager-options.js";
import type { HeartbeatOptions } from "./plugins/runtime/host-half/worker-session.js";
import { pluginRuntimePaths } from "./plugins/runtime/launch/runtime-paths.js";
import type { PluginHostLaunch } from "./plugins/runtime/launch/plugin-host-process.js";
import { pluginHandlers, type OpenFolder } from "./plugins/manager/plugin-rpc-handlers.js";
import { PluginRpcDispatcher } from "./plugins/pages/plugin-rpc-dispatch.js";
import { pageSessionHandlers } from "./plugins/pages/page-session-rpc.js";
import { PageSessions } from "./plugins/pages/page-sessions.js";
import { ToolRegistry } from "./plugins/registries/tool-registry.js";
import { estimateTokens } from "./sessions/turns/compaction.js";
import { SessionService } from "./sessions/session-service.js";
import { sessionHandlers } from "./sessions/session-rpc.js";
import { StoreBackups } from "./sessions/recovery/store-backups.js";
import { StoreHandle } from "./sessions/recovery/store-handle.js";
import { sessionStoreFile } from "./sessions/store/store-file.js";
import { runToolCall } from "./sessions/turns/tool-dispatch.js";
import { runToolLoop } from "./sessions/turns/tool-loop.js";
import type { Usage } from "./llm/usage.js";
import { warmUpHttpFetch } from "./llm/http-fetch.js";
import { scheduleWarmUp } from "./warm-up.js";
import { InteractiveGate } from "./interactive-gate.js";
import { createRouter, prepareValidators, type HandlerTable, type Router } from "./rpc/router.js";
import type { Notice } from "./rpc/methods/host-info.js";
import { KeychainStatus } from "./secrets/keychain-status.js";
import { createRedactor } from "./secrets/redaction.js";
import type { Vault } from "./secrets/vault.js";

/**
 * How long `host.info` waits for the start-up keychain probe: a missing binding answers at once, a
 * Secret Service on D-Bus within milliseconds; one stuck on a prompt is reported by `host.changed`.
 */
const KEYCHAIN_PROBE_WAIT_MS = 2_000;

/**
 * What waits for a window to be interactive (plugins with `pluginStart: "after-window"`, MCP
 * servers) starts by then when no window has said so (a web host with no page open): well past a
 * slow window's start (12 s measured on a loaded machine), which they must not compete with.
 */
export const INTERACTIVE_FALLBACK_MS = 30_000;

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
  /** How the plugin host process starts (desktop: Electron's binary as Node); plain Node by default. */
  pluginHostLaunch?: Pick<PluginHostLaunch, "execPath" | "nodeVersion" | "env" | "spawn" | "confinement">;
  /** Shorter deadlines, heartbeats and restart delays, for tests; docs/contract.md §5.4's values by default. */
  pluginTimings?: PluginTimings;
  /** Page frames' tokens, when the transport made them before the host started (web mode). */
  pageSessions?: PageSessions;
  /** The shell's own `host.info` notices (desktop: an update ready to install); none by default. */
  shellNotices?: () => Notice[];
  /** Where the Hermes import finds `$HERMES_HOME` (tests give their own); the process environment by default. */
  hermesEnv?: Readonly<Record<string, string | undefined>>;
  /** Where `providers.discover` looks (tests point it at their own servers); the well-known ports by default. */
  discovery?: DiscoveryOptions;
  /**
   * What the session store's damage check found, when the caller ran it before creating the host
   * (web mode, off the main thread: `findStoreDamageOffThread`); the host checks the file otherwise.
   */
  storeDamage?: string | null;
  /**
   * When plugins start (the plugin host, and a worker each): at once by default; `after-window`
   * waits for the window to be interactive (`host.interactive`, or `interactiveFallbackMs`), the
   * same start gate as MCP servers', so their start-up never competes with the window's. The apps
   * pass it.
   */
  pluginStart?: "at-once" | "after-window";
  /** Opens a web page in the system browser (desktop: Electron's shell.openExternal); web mode shows links instead. */
  openExternal?: (url: string) => Promise<void>;
  /** How long the start gate waits for a window to say it is interactive (tests shorten it). */
  interactiveFallbackMs?: number;
  /** MCP servers: a fixed PATH lookup, short restart delays and a short sign-in timeout, for tests. */
  mcp?: { pathValue?: () => Promise<string>; backoffStartMs?: number; signInTimeoutMs?: number };
}

export interface PluginTimings {
  registerTimeoutMs?: number;
  restartBackoffMs?: number;
  heartbeat?: HeartbeatOptions;
  deadlines?: Partial<CallDeadlines>;
  /** How long one idle task run may take (10 minutes by default). */
  idleTaskDeadlineMs?: number;
}

export interface Host {
  router: Router;
  /** Settles once the warm-up (warm-up.ts) has run, or was cancelled by `close`. */
  warmedUp: Promise<void>;
  events: EventHub;
  settings: SettingsStore;
  log: AgentLog;
  plugins: PluginManager;
  /** Every auxiliary slot, built-in and plugin (docs/contract.md §6.2, §6.3); every surface reads it. */
  auxiliaryTasks: AuxiliaryTaskRegistry;
  /** What plugins registered; the chat dispatches slash commands, hooks and tools through these. */
  pluginRegistries: { commands: CommandRegistry; hooks: HookRegistry; tools: ToolRegistry };
  /** Plugins' idle tasks (docs/contract.md §9.4) and the activity they wait on. */
  idleTasks: IdleTaskScheduler;
  activity: ActivityMonitor;
  /** The desktop chat (docs/contract.md §9): sessions, turns, busy input, titles. */
  sessions: SessionService;
  /** Side-question tokens (docs/contract.md §7.3): issued after person turns, spent by sideQuestion/forkSession. */
  leases: SideQuestionLeases;
  /** Bills a model call to a session's usage ledger; plugin calls use `plugin_llm:<id>`. */
  billUsage(sessionId: string, category: string, usage: Usage): void;
  redact(text: string, options?: { force?: boolean }): string;
  /** Whether the OS keychain answered at start-up; a failure shows as a `host.info` notice. */
  keychain: KeychainStatus;
  /** Plugin page frames' tokens (docs/contract.md §8, §11); the transports check them. */
  pageSessions: PageSessions;
  /** MCP servers (docs/contract.md §13); they start once a window is interactive, or at `mcp.start()`. */
  mcp: McpHost;
  /** The session store's automatic backups (daily, before migrations) in `<home>/backups/`. */
  backups: StoreBackups;
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
  const modelInfo = new ModelInfoCache();
  const providers = new ProvidersService(settings, options.vault, modelInfo);
  const hermesImport = new HermesImportService(settings, options.vault, options.hermesEnv);
  const discovery = new LocalServerDiscovery(() => settings.get().providers, options.discovery);
  const auxiliaryTasks = new AuxiliaryTaskRegistry((message, fields) =>
    log.write("WARN", "auxiliary_task_warning", { ...fields, warning: message }),
  );
  const model = new ModelService(settings, auxiliaryTasks);
  const engine = new ChatEngine(options.vault, clock);
  const commands = new CommandRegistry();
  const hooks = new HookRegistry(log, clock);
  const tools = new ToolRegistry();
  // Plugin usage is billed to the session store, which opens below (`pluginBilling.bill`).
  const pluginBilling: { bill?: BillUsage } = {};
  const budgets = new PluginBudgets(
    clock,
    (id) => settings.document().plugins?.entries?.[id]?.limits?.daily_tokens,
    join(options.home, BUDGET_FILE_NAME),
  );
  const bundledPluginsDir =
    options.bundledPluginsDir === undefined ? findBundledPluginsDir() : options.bundledPluginsDir;
  const pluginRuntime = new PluginRuntime({
    ...pluginRuntimePaths(options.home, bundledPluginsDir),
    clock,
    ...(options.pluginHostLaunch && { launch: options.pluginHostLaunch }),
    ...(options.pluginTimings?.heartbeat && { heartbeat: options.pluginTimings.heartbeat }),
    onStderr: (line) => log.write("WARN", "plugin_host_stderr", { line }),
  });
  const pluginLlm = new PluginLlmService({
    settings,
    engine,
    log,
    budget: budgets,
    slots: auxiliaryTasks,
    hooks,
    billUsage: (sessionId, category, usage) => pluginBilling.bill?.(sessionId, category, usage),
  });
  // One token per person turn (docs/contract.md §7.3); `plugins` is read at each use, once it exists.
  const leases: SideQuestionLeases = new SideQuestionLeases({
    clock,
    anyHolder: (): boolean => plugins.anyHolds(["llm.side_question", "llm.session_fork"]),
    holds: (pluginId, capability): boolean => plugins.holds(pluginId, capability),
  });
  // Sessions open below; the side questions reach them late-bound.
  const sessionAccess: { sessions?: SessionService } = {};
  const sideQuestions = new SideQuestions({
    leases,
    engine,
    hooks,
    budgets,
    clock,
    log,
    currentRoute: (sessionId) => sessionAccess.sessions?.currentRoute(sessionId) ?? null,
    bill: (sessionId, category, usage) => pluginBilling.bill?.(sessionId, category, usage),
  });
  const mcp = createMcpHost({
    home: options.home,
    settings,
    events,
    vault: options.vault,
    engine,
    slots: auxiliaryTasks,
    log,
    redact: (text) => redactor.redact(text, { force: true }),
    bill: (sessionId, category, usage) => pluginBilling.bill?.(sessionId, category, usage),
    ...(options.openExternal ? { openExternal: options.openExternal } : {}),
    ...options.mcp,
  });
  // The session store opens here; replies a crash left streaming are marked interrupted on open.
  // Backed up before any schema migration (as it opens) and daily; the backups reach the store late-bound.
  const backups: StoreBackups = new StoreBackups({
    dir: join(options.home, "backups"),
    clock,
    store: () => sessionStore.get(),
    onError: (error) => log.write("ERROR", "store_backup_failed", { error: String(error) }),
  });
  const sessionStore = new StoreHandle({
    file: sessionStoreFile(options.home),
    clock,
    ...(options.storeDamage !== undefined && { damageFound: options.storeDamage }),
    beforeMigration: backups.beforeMigration,
    // Every window shows the disk-full notice (host.info) while it lasts.
    onDiskFullChange: () => events.emit("host.changed", null, {}),
  });
  backups.start();
  // Idle tasks (docs/contract.md §9.4) wait for the app to be idle: the chat's turns and a person's input.
  const activity = new ActivityMonitor(clock, lastSessionActivity(sessionStore));
  const unfollowActivity = activity.follow(events);
  const idleTasks = new IdleTaskScheduler({
    home: options.home,
    clock,
    activity,
    claims: new IdleClaims(claimsDir(options.home), () => clock.now()),
    log,
    // The Plugins page shows each task's last run: a run that ended refreshes it.
    onRecorded: () => events.emit("plugins.changed", null, {}),
    ...(options.pluginTimings?.idleTaskDeadlineMs !== undefined && {
      deadlineMs: options.pluginTimings.idleTaskDeadlineMs,
    }),
  });
  // Forks need the sessions, which open below; plugins reach them through this late binding.
  let forkService: ForkService | null = null;
  const forks: PluginForks = {
    start: (pluginId, raw, onUpdate) => forkService?.start(pluginId, raw, onUpdate) ?? null,
    cancel: (pluginId, forkId) => forkService?.cancel(pluginId, forkId),
  };
  const plugins: PluginManager = new PluginManager({
    forks,
    home: options.home,
    bundledDir: bundledPluginsDir,
    settings,
    commands,
    hooks,
    tools,
    slots: auxiliaryTasks,
    idleTasks,
    idleTaskViews: (pluginId) => idleTaskViews(idleTasks, options.home, pluginId, clock.now()),
    // The chats open below; plugins start (and can inject) only after that.
    injectMessage: (pluginId, sessionId, text): boolean => sessions.inject(sessionId, text, pluginId),
    llm: pluginLlm,
    budgets,
    sideQuestions,
    runtime: pluginRuntime,
    ...options.pluginTimings,
    redact: (text, opts) => redactor.redact(text, opts),
    log,
    clock,
    onChange: () => {
      events.emit("plugins.changed", null, {});
      // A plugin that left takes its forks with it.
      forkService?.cancelUnloaded((id) => plugins.isLoaded(id));
    },
    onConsentRequired: (id, pendingCapabilities) =>
      events.emit("plugin.consent_required", null, { id, pendingCapabilities }),
    emitPluginEvent: (pluginId, event, sessionId, payload) =>
      events.emitPlugin(pluginId, event, sessionId, payload),
  });
  const consent = new ConsentService({
    settings,
    log,
    clock,
    declared: (id) => plugins.declaredCapabilities(id),
    view: (id) => plugins.get(id),
  });
  const pluginRpc = new PluginRpcDispatcher({
    registry: plugins.rpc,
    isLoaded: (id) => plugins.isLoaded(id),
  });
  const sessions = new SessionService({
    store: sessionStore,
    settings,
    events,
    engine,
    hooks,
    tools,
    external: mcp.chatTools,
    commands,
    log,
    clock,
    modelInfo,
    leases,
    auxiliary: new AuxiliaryCaller({
      routeFor: (task) => resolveAuxiliaryRoute(task, settings.get(), auxiliaryTasks),
      engine,
      hooks,
      bill: (sessionId, category, usage) => pluginBilling.bill?.(sessionId, category, usage),
    }),
  });
  const billUsage = (sessionId: string, category: string, usage: Usage) =>
    sessions.billUsage(sessionId, category, usage);
  pluginBilling.bill = billUsage;
  forkService = new ForkService({
    engine,
    hooks,
    tools,
    loop: {
      run: runToolLoop,
      runTool: (call, scope) => runToolCall({ hooks, tools }, call, scope),
      estimateTokens,
    },
    leases,
    slots: auxiliaryTasks,
    settings,
    budgets,
    bill: billUsage,
    backgroundWork: sessions.backgroundWork,
    currentRoute: (sessionId) => sessions.currentRoute(sessionId),
    turnReply: (sessionId, turnId) => sessions.turnReply(sessionId, turnId),
    modelInfo,
    clock,
    log,
  });
  sessionAccess.sessions = sessions;
  // The start gate: what must not compete with a window's start (plugins with `after-window`, MCP
  // servers) waits until the window says it is interactive, or the fallback when none does.
  const interactive = new InteractiveGate(options.interactiveFallbackMs ?? INTERACTIVE_FALLBACK_MS);
  let pluginsStarting = false;
  const startPlugins = (): void => {
    if (pluginsStarting) return;
    pluginsStarting = true;
    // Enabled plugins are about to load: their plugin host and workers start now, beside the rest.
    const expectedWorkers = expectedDefaultWorkers(settings);
    if (expectedWorkers > 0) pluginRuntime.warm({ count: expectedWorkers, heapMb: DEFAULT_HEAP_MB });
    void plugins.start().catch((err) => log.write("ERROR", "plugins_start_failed", { error: String(err) }));
  };
  if (options.pluginStart === "after-window") {
    plugins.startLater();
    interactive.whenInteractive(startPlugins);
  } else {
    startPlugins();
  }

  // Teach the redactor every stored key up front; a missing or locked keychain becomes a notice.
  const keychain = new KeychainStatus(options.vault, () => events.emit("host.changed", null, {}));

  const unwatch = settings.onChange(() => events.emit("settings.changed", null, {}));
  // A slot a plugin registers after its `register` ran must reach the page too.
  const unwatchSlots = auxiliaryTasks.onChange(() => events.emit("plugins.changed", null, {}));
  // The Plugins page's "Today" figures move as calls and tokens are counted, throttled per plugin.
  const counterEvents = new RuntimeCounterEvents(clock, (id) =>
    events.emit("plugins.runtime", null, {
      id,
      callsToday: budgets.callsToday(id),
      tokensToday: budgets.tokensToday(id),
    }),
  );
  const unwatchCounters = budgets.onCounted((id) => counterEvents.counted(id));

  const pageSessions = options.pageSessions ?? new PageSessions(clock);
  const sessionTable = sessionHandlers(sessions);
  const handlers: HandlerTable = {
    "host.interactive": async () => {
      interactive.open();
      return {};
    },
    "host.info": async () => {
      // The first answer after start-up carries the keychain notice (README: "says at start-up").
      await keychain.settledWithin(KEYCHAIN_PROBE_WAIT_MS);
      return {
        version: options.version,
        mode: options.mode,
        home: options.home,
        notices: [
          ...settings.notices(),
          ...keychain.notices(),
          ...sessions.notices(),
          ...plugins.notices(),
          ...auxiliaryTasks.notices(),
          ...(options.shellNotices?.() ?? []),
        ],
      };
    },
    "events.subscribe": async ({ topics }, ctx) => {
      const unique = [...new Set(topics)];
      events.setTopics(ctx.connectionId, unique);
      return { topics: unique };
    },
    "backups.list": async () => ({ backups: backups.list() }),
    "backups.restore": async ({ name }) => {
      const file = backups.pathOf(name);
      await backups.settled();
      const { keptAside } = sessions.restoreBackup(file);
      return { restored: name, keptAside };
    },
    "settings.get": async () => settings.get(),
    "settings.set": async ({ key, value, base }) => {
      settings.set(key, value, { base });
      return { ok: true };
    },
    "settings.import.detect": async () => hermesImport.detect(),
    "settings.import.preview": async ({ from }) => hermesImport.preview(from),
    "settings.import.apply": ({ from, keys }) => hermesImport.apply(from, keys),
    "settings.import.undo": () => hermesImport.undo(),
    "providers.list": () => providers.list(),
    "providers.save": (params) => providers.save(params),
    "providers.remove": ({ id }) => providers.remove(id),
    "providers.models": ({ id }) => providers.models(id),
    "providers.discover": () => discovery.discover(),
    "model.auxiliary.list": async () => model.auxiliaryList(),
    "model.set": (params) => model.set(params),
    // Acting on plugins (a change, a page, a plugin's own method) wants them now: it opens the gate.
    ...pluginHandlers(plugins, consent, options.openFolder, () => interactive.open()),
    ...pageSessionHandlers(pageSessions, {
      ready: () => plugins.ready(),
      startNow: () => interactive.open(),
      isLoaded: (id) => plugins.isLoaded(id),
      pageSite: (id) => plugins.pageSite(id),
    }),
    ...sessionTable,
    ...mcpHandlers(mcp),
  };

  const router = createRouter(
    handlers,
    mapServiceError,
    (err) =>
      log.write("ERROR", "rpc_error", {
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      }),
    (text) => redactor.redact(text, { force: true }),
    async (method, params) => {
      interactive.open();
      await plugins.ready();
      return pluginRpc.call(method, params);
    },
  );

  // MCP servers start once a window is interactive, in parallel, never competing with its start
  // (§13.2): 5 servers are 5 processes starting at once.
  interactive.whenInteractive(() => mcp.start());

  // The first turn's one-time costs, taken off its way to the first token.
  const warmUp = scheduleWarmUp(
    [
      { name: "http", run: warmUpHttpFetch },
      { name: "validators", run: () => prepareValidators(["session.create", "session.send"]) },
    ],
    log,
  );

  return {
    router,
    warmedUp: warmUp.done,
    events,
    settings,
    log,
    plugins,
    auxiliaryTasks,
    pluginRegistries: { commands, hooks, tools },
    idleTasks,
    activity,
    sessions,
    leases,
    billUsage,
    redact: (text, opts) => redactor.redact(text, opts),
    keychain,
    pageSessions,
    mcp,
    backups,
    async close() {
      warmUp.cancel();
      interactive.cancel(); // neither plugins nor MCP servers start after this
      idleTasks.stop(); // no new idle run once the host is stopping
      backups.stop();
      await backups.settled();
      await mcp.close();
      await plugins.close();
      await pluginRuntime.close();
      await idleTasks.settled();
      unfollowActivity();
      unwatchCounters();
      counterEvents.close();
      budgets.flush();
      await sessions.close();
      unwatch();
      unwatchSlots();
      settings.close();
      log.close?.();
    },
  };
}

/** When a chat last changed, as the store says (so a restart does not count as activity). */
function lastSessionActivity(store: StoreHandle): number | undefined {
  try {
    const times = store
      .get()
      .listSessions({ limit: 50 })
      .map((s) => s.updatedAt);
    return times.length ? Math.max(...times) : undefined;
  } catch {
    return undefined; // no store: idle from now on
  }
}
