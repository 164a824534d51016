/** Real parts for plugin tests: a temp home, the settings store, the fake provider, the keytar vault. */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { systemClock, type Clock } from "../../../electron/host/clock.js";
import { ManualClock } from "../../fixtures/manual-clock.js";
import { SettingsStore } from "../../../electron/host/config/settings-store.js";
import type { SettingsDocument } from "../../../electron/host/config/config-schema.js";
import { ChatEngine } from "../../../electron/host/llm/chat-engine.js";
import type { Usage } from "../../../electron/host/llm/usage.js";
import { createAgentLog, type AgentLog } from "../../../electron/host/logging/agent-log.js";
import { AuxiliaryTaskRegistry } from "../../../electron/host/models/auxiliary-tasks.js";
import { CommandRegistry } from "../../../electron/host/plugins/registries/command-registry.js";
import { HookRegistry } from "../../../electron/host/plugins/registries/hook-registry.js";
import { PluginLlmService } from "../../../electron/host/plugins/llm/plugin-llm.js";
import { PluginBudgets } from "../../../electron/host/plugins/budgets/plugin-budget.js";
import { ActivityMonitor } from "../../../electron/host/activity-monitor.js";
import { claimsDir, IdleClaims } from "../../../electron/host/plugins/idle/idle-claims.js";
import { IdleTaskScheduler } from "../../../electron/host/plugins/idle/idle-scheduler.js";
import { PluginManager } from "../../../electron/host/plugins/manager/plugin-manager.js";
import type { CallDeadlines } from "../../../electron/host/plugins/runtime/host-half/ctx-host.js";
import { locatePluginHostBundle } from "../../../electron/host/plugins/runtime/plugin-host-bundle.js";
import { PluginRuntime } from "../../../electron/host/plugins/runtime/plugin-runtime.js";
import { pluginRuntimePaths } from "../../../electron/host/plugins/runtime/launch/runtime-paths.js";
import type { HeartbeatOptions } from "../../../electron/host/plugins/runtime/host-half/worker-session.js";
import { ToolRegistry } from "../../../electron/host/plugins/registries/tool-registry.js";
import { createRedactor } from "../../../electron/host/secrets/redaction.js";
import { createKeytarVault, type Vault } from "../../../electron/host/secrets/vault.js";
import { startFakeProvider, type FakeProvider } from "../../fixtures/fake-provider.js";
import { requireSecretService } from "../support/test-host.js";
import { tempHome } from "../support/temp-home.js";

export const FAKE_KEY = "sk-test-0000000000000000000000000000fake";
export const OTHER_KEY = "sk-test-1111111111111111111111111111othr";

export interface Rig {
  home: string;
  settings: SettingsStore;
  provider: FakeProvider;
  /** A second provider, for provider overrides and fallback. */
  other: FakeProvider;
  vault: Vault;
  env: Record<string, string | undefined>;
  log: AgentLog;
  engine: ChatEngine;
  llm: PluginLlmService;
  billed: { sessionId: string; category: string; usage: Usage }[];
  commands: CommandRegistry;
  hooks: HookRegistry;
  tools: ToolRegistry;
  slots: AuxiliaryTaskRegistry;
  clock: ManualClock;
  logLines(): string[];
  /** Sets `plugins.entries.<id>.llm` exactly as given (absent keys stay absent). */
  policy(pluginId: string, llm: Record<string, unknown> | undefined): void;
  /**
   * Between tests of one plugin's LLM calls: both providers drop their queued replies, faults and
   * recorded requests, and the plugin's settings entry (its `llm` policy) is removed.
   */
  resetLlmCalls(pluginId: string): void;
  requestCount(): number;
  manager(options?: ManagerOptions): PluginManager;
  /** The plugin runtime of the last manager made. */
  runtime(): PluginRuntime;
  userPlugins: string;
  /**
   * Between tests: closes every manager and plugin host made so far, removes every user plugin and
   * clears `plugins.*`, so the next test's manager starts only the workers it asks for.
   */
  reset(): Promise<void>;
  dispose(): Promise<void>;
}

export interface ManagerOptions {
  bundledDir?: string | null;
  clock?: Clock;
  registerTimeoutMs?: number;
  heartbeat?: HeartbeatOptions;
  restartBackoffMs?: number;
  deadlines?: Partial<CallDeadlines>;
  /** Budgets read this clock's local day (the manager's clock by default). */
  budgetClock?: Clock;
  /** Where registerIdleTask goes (docs/contract.md §9.4). */
  idleTasks?: IdleTaskScheduler;
}

export async function startRig(
  options: { vaultEnv?: Record<string, string | undefined> } = {},
): Promise<Rig> {
  requireSecretService();
  // Built once per source state (esbuild, when running from the sources): here, not in the first test.
  await locatePluginHostBundle();
  const temp = tempHome("hermes-plugins-");
  const home = temp.dir;
  const provider = await startFakeProvider({ apiKey: FAKE_KEY });
  const other = await startFakeProvider({ apiKey: OTHER_KEY, models: ["other/model-a", "Other/Model-B"] });
  const clock = new ManualClock();
  const settings = new SettingsStore({ home, clock });
  settings.update((doc: SettingsDocument) => {
    doc.providers = {
      fake: { name: "Fake", base_url: provider.baseURL },
      other: { name: "Other", base_url: other.baseURL, profiles: ["work"] },
    };
    doc.model = { provider: "fake", model: "fake/chat-small" };
  });
  const env = options.vaultEnv ?? {};
  const vault = createKeytarVault({ service: `hermes-desktop-test-${randomUUID()}`, env });
  await vault.setKey("fake", FAKE_KEY);
  await vault.setKey("other", OTHER_KEY);
  await vault.setKey("other", OTHER_KEY, "work");
  const redactor = createRedactor({
    knownKeys: () => vault.knownKeys(),
    enabled: () => settings.get().security.redact_secrets,
  });
  const log = createAgentLog(home, systemClock, (text) => redactor.redact(text, { force: true }));
  const engine = new ChatEngine(vault);
  const billed: Rig["billed"] = [];
  const runtimes: PluginRuntime[] = [];
  let budgets: PluginBudgets | null = null;
  // The service reads the budgets of the last manager made (one manager per test).
  const budgetProxy = {
    check: (id: string) => budgets?.check(id),
    spend: (id: string, tokens: number) => budgets?.spend(id, tokens),
  };
  const slots = new AuxiliaryTaskRegistry();
  const hooks = new HookRegistry(log, clock);
  const llm = new PluginLlmService({
    settings,
    engine,
    log,
    slots,
    hooks,
    billUsage: (sessionId, category, usage) => void billed.push({ sessionId, category, usage }),
    budget: budgetProxy,
  });
  const commands = new CommandRegistry();
  const tools = new ToolRegistry();
  const managers: PluginManager[] = [];

  const userPlugins = path.join(home, "plugins");
  fs.mkdirSync(userPlugins, { recursive: true });

  const policy: Rig["policy"] = (pluginId, llmPolicy) => {
    settings.update((doc) => {
      const plugins = (doc.plugins ??= {});
      const entries = (plugins.entries ??= {});
      if (llmPolicy === undefined) delete entries[pluginId];
      else entries[pluginId] = { llm: llmPolicy as never };
    });
  };

  return {
    home,
    settings,
    provider,
    other,
    vault,
    env,
    log,
    engine,
    llm,
    billed,
    commands,
    hooks,
    tools,
    slots,
    clock,
    userPlugins,
    logLines: () => {
      // Audit lines are written moments after their call; the file is read as of now.
      log.flush();
      try {
        return fs.readFileSync(log.file, "utf8").split("\n").filter(Boolean);
      } catch {
        return [];
      }
    },
    policy,
    resetLlmCalls(pluginId) {
      provider.reset();
      other.reset();
      policy(pluginId, undefined);
    },
    requestCount: () => provider.requests.length + other.requests.length,
    runtime: () => runtimes.at(-1)!,
    manager(opts = {}) {
      const clock = opts.clock ?? systemClock;
      budgets = new PluginBudgets(
        opts.budgetClock ?? clock,
        (id) => settings.document().plugins?.entries?.[id]?.limits?.daily_tokens,
      );
      const runtime = new PluginRuntime({
        ...pluginRuntimePaths(home, opts.bundledDir ?? null),
        clock,
        ...(opts.heartbeat && { heartbeat: opts.heartbeat }),
      });
      runtimes.push(runtime);
      const manager = new PluginManager({
        home,
        bundledDir: opts.bundledDir ?? null,
        settings,
        commands,
        hooks,
        tools,
        slots,
        llm,
        budgets,
        runtime,
        redact: redactor.redact,
        log,
        clock,
        ...(opts.registerTimeoutMs !== undefined && { registerTimeoutMs: opts.registerTimeoutMs }),
        ...(opts.restartBackoffMs !== undefined && { restartBackoffMs: opts.restartBackoffMs }),
        ...(opts.deadlines && { deadlines: opts.deadlines }),
        // A real scheduler either way; by default on the manager's clock, idle from now.
        idleTasks:
          opts.idleTasks ??
          new IdleTaskScheduler({
            home,
            clock,
            activity: new ActivityMonitor(clock),
            claims: new IdleClaims(claimsDir(home), () => clock.now()),
            log,
          }),
      });
      managers.push(manager);
      return manager;
    },
    async reset() {
      for (const manager of managers.splice(0)) await manager.close();
      for (const runtime of runtimes.splice(0)) await runtime.close();
      for (const folder of fs.readdirSync(userPlugins)) {
        fs.rmSync(path.join(userPlugins, folder), { recursive: true, force: true });
      }
      fs.rmSync(path.join(home, "plugin-data"), { recursive: true, force: true });
      settings.update((doc) => {
        delete doc.plugins;
      });
    },
    async dispose() {
      for (const manager of managers) await manager.close();
      for (const runtime of runtimes) await runtime.close();
      for (const account of await vault.listAccounts().catch(() => [])) {
        const [id, profile] = account.split(":");
        await vault.deleteKey(id!, profile).catch(() => undefined);
      }
      settings.close();
      await provider.close();
      await other.close();
      temp.cleanup();
    },
  };
}

/** Writes a plugin folder: `plugin.yaml` (given or a default one) and its files. */
export function writePlugin(
  root: string,
  folder: string,
  files: Record<string, string>,
  manifest?: string,
): string {
  const dir = path.join(root, folder);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "plugin.yaml"),
    manifest ?? `name: ${folder}\nversion: 1.0.0\ndescription: Test plugin ${folder}.\nmain: index.js\n`,
  );
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

export function enable(settings: SettingsStore, ...ids: string[]): void {
  settings.update((doc) => {
    const plugins = (doc.plugins ??= {});
    plugins.enabled = [...new Set([...(plugins.enabled ?? []), ...ids])];
  });
}

/** A failure inside the plugin, as the driver reports it. */
export interface DrivenError {
  name: string;
  message: string;
  stack?: string;
  reason?: string;
}

/**
 * The `ctx` of a plugin in its worker, driven from a test: the plugin registers one command that
 * runs a named `ctx` member with the given arguments and answers `{ok, value}` or `{ok, error}`.
 */
export interface DrivenCtx {
  pluginId: string;
  call(member: string, ...args: unknown[]): Promise<unknown>;
  llm: {
    complete(params: unknown): Promise<unknown>;
    completeStructured(params: unknown): Promise<unknown>;
  };
  redact(text: string, options?: { force?: boolean }): Promise<string>;
  hasCapability(id: string): Promise<boolean>;
}

export const driverPlugin = `
const members = {
  pluginId: (ctx) => ctx.pluginId,
  "llm.complete": (ctx, p) => ctx.llm.complete(p),
  "llm.completeStructured": (ctx, p) => ctx.llm.completeStructured(p),
  redact: (ctx, text, options) => ctx.redact(text, options),
  hasCapability: (ctx, id) => ctx.hasCapability(id),
  env: () => ({ ...process.env }),
  registerAuxiliaryTask: (ctx, key, spec) => ctx.registerAuxiliaryTask(key, spec),
  registerLate: (ctx) => {
    ctx.registerCommand({ name: "late-cmd", argsHint: "<x>", handler: (raw) => "late:" + raw });
    ctx.registerHook("on_session_start", () => undefined);
    ctx.registerTool({ name: "late_tool", description: "t", parameters: { type: "object" }, handler: () => "ok" });
  },
};
export function register(ctx) {
  ctx.registerCommand({
    name: "drive-" + ctx.pluginId,
    handler: async (raw) => {
      const { member, args } = JSON.parse(raw);
      try {
        return { ok: true, value: await members[member](ctx, ...args) };
      } catch (error) {
        return { ok: false, error: { name: error.name, message: error.message, stack: error.stack, reason: error.reason } };
      }
    },
  });
}`;

export async function loadCtxPlugin(
  rig: Rig,
  id: string,
  manifest?: string,
  options: ManagerOptions = {},
): Promise<{ ctx: DrivenCtx; manager: PluginManager }> {
  writePlugin(rig.userPlugins, id, { "index.js": driverPlugin }, manifest);
  enable(rig.settings, id);
  const manager = rig.manager(options);
  await manager.start();
  if (manager.get(id).status !== "loaded")
    throw new Error(`The plugin ${id} did not load: ${manager.get(id).error ?? manager.get(id).status}`);
  const call = async (member: string, ...args: unknown[]) => {
    const command = rig.commands.get(`drive-${id}`);
    if (!command) throw new Error(`The plugin ${id} is not loaded`);
    const answer = (await command.handler(JSON.stringify({ member, args }), {
      sessionId: "s",
      gatewaySessionKey: "g",
    })) as { ok: true; value: unknown } | { ok: false; error: DrivenError };
    if (answer.ok) return answer.value;
    const error = new Error(answer.error.message);
    Object.assign(error, answer.error);
    throw error;
  };
  const ctx: DrivenCtx = {
    pluginId: (await call("pluginId")) as string,
    call,
    llm: {
      complete: (params) => call("llm.complete", params),
      completeStructured: (params) => call("llm.completeStructured", params),
    },
    redact: (text, opts) => call("redact", text, opts) as Promise<string>,
    hasCapability: (capability) => call("hasCapability", capability) as Promise<boolean>,
  };
  return { ctx, manager };
}

/** The `plugin_llm` audit lines. */
export const auditLines = (rig: Rig) => rig.logLines().filter((line) => line.includes(" plugin_llm "));
