/** Real parts for plugin tests: a temp home, the settings store, the fake provider, the keytar vault. */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { PluginContext } from "../../../plugins/sdk/types.js";
import { ManualClock, systemClock, type Clock } from "../../../electron/host/clock.js";
import { SettingsStore } from "../../../electron/host/config/settings-store.js";
import type { SettingsDocument } from "../../../electron/host/config/config-schema.js";
import { ChatEngine } from "../../../electron/host/llm/chat-engine.js";
import type { Usage } from "../../../electron/host/llm/usage.js";
import { createAgentLog, type AgentLog } from "../../../electron/host/logging/agent-log.js";
import { AuxiliaryTaskRegistry } from "../../../electron/host/models/auxiliary-tasks.js";
import { CommandRegistry } from "../../../electron/host/plugins/command-registry.js";
import { HookRegistry } from "../../../electron/host/plugins/hook-registry.js";
import { PluginLlmService } from "../../../electron/host/plugins/plugin-llm.js";
import { PluginManager } from "../../../electron/host/plugins/plugin-manager.js";
import { ToolRegistry } from "../../../electron/host/plugins/tool-registry.js";
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
  requestCount(): number;
  manager(options?: { bundledDir?: string | null; clock?: Clock; registerTimeoutMs?: number }): PluginManager;
  userPlugins: string;
  dispose(): Promise<void>;
}

export async function startRig(
  options: { vaultEnv?: Record<string, string | undefined> } = {},
): Promise<Rig> {
  requireSecretService();
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
  const slots = new AuxiliaryTaskRegistry();
  const hooks = new HookRegistry(log, clock);
  const llm = new PluginLlmService({
    settings,
    engine,
    log,
    slots,
    hooks,
    billUsage: (sessionId, category, usage) => void billed.push({ sessionId, category, usage }),
  });
  const commands = new CommandRegistry();
  const tools = new ToolRegistry();
  const managers: PluginManager[] = [];
  const userPlugins = path.join(home, "plugins");
  fs.mkdirSync(userPlugins, { recursive: true });

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
      try {
        return fs.readFileSync(log.file, "utf8").split("\n").filter(Boolean);
      } catch {
        return [];
      }
    },
    policy(pluginId, llmPolicy) {
      settings.update((doc) => {
        const plugins = (doc.plugins ??= {});
        const entries = (plugins.entries ??= {});
        if (llmPolicy === undefined) delete entries[pluginId];
        else entries[pluginId] = { llm: llmPolicy as never };
      });
    },
    requestCount: () => provider.requests.length + other.requests.length,
    manager(opts = {}) {
      const manager = new PluginManager({
        home,
        bundledDir: opts.bundledDir ?? null,
        settings,
        commands,
        hooks,
        tools,
        slots,
        llm,
        redact: redactor.redact,
        log,
        clock: opts.clock ?? systemClock,
        ...(opts.registerTimeoutMs !== undefined && { registerTimeoutMs: opts.registerTimeoutMs }),
      });
      managers.push(manager);
      return manager;
    },
    async dispose() {
      for (const manager of managers) await manager.close();
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

/**
 * A user plugin whose `register` only hands its ctx out, enabled and loaded by a fresh manager:
 * for tests that drive `ctx` the way a plugin would.
 */
export async function loadCtxPlugin(
  rig: Rig,
  id: string,
  manifest?: string,
): Promise<{ ctx: PluginContext; manager: PluginManager }> {
  const slot = `__ctx_${id.replace(/-/g, "_")}`;
  writePlugin(
    rig.userPlugins,
    id,
    { "index.js": `export function register(ctx) { globalThis.${slot} = ctx; }` },
    manifest,
  );
  enable(rig.settings, id);
  const manager = rig.manager();
  await manager.start();
  const ctx = (globalThis as Record<string, unknown>)[slot] as PluginContext | undefined;
  if (!ctx)
    throw new Error(`The plugin ${id} did not load: ${manager.get(id).error ?? manager.get(id).status}`);
  return { ctx, manager };
}

/** The `plugin_llm` audit lines. */
export const auditLines = (rig: Rig) => rig.logLines().filter((line) => line.includes(" plugin_llm "));
