/**
 * createHost: wires the services of the main process and returns the RPC router every transport
 * (Electron IPC, web mode's WebSocket) dispatches to. Plain Node; never imports electron.
 */
import { mkdirSync } from "node:fs";
import { systemClock, type Clock } from "./clock.js";
import { SettingsStore } from "./config/settings-store.js";
import { mapServiceError } from "./error-mapping.js";
import { EventHub } from "./events.js";
import { createAgentLog, type AgentLog } from "./logging/agent-log.js";
import { ModelService } from "./models/model-service.js";
import { ProvidersService } from "./models/providers-service.js";
import { createRouter, type HandlerTable, type Router } from "./rpc/router.js";
import { createRedactor } from "./secrets/redaction.js";
import type { Vault } from "./secrets/vault.js";

export interface HostOptions {
  home: string;
  vault: Vault;
  mode: "desktop" | "web";
  version: string;
  clock?: Clock;
}

export interface Host {
  router: Router;
  events: EventHub;
  settings: SettingsStore;
  log: AgentLog;
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

  // Teach the redactor every stored key up front; a locked keychain just means fewer known keys.
  void options.vault.listAccounts().catch(() => undefined);

  const unwatch = settings.onChange(() => events.emit("settings.changed", null, {}));

  const handlers: HandlerTable = {
    "host.info": async () => ({
      version: options.version,
      mode: options.mode,
      home: options.home,
      notices: settings.notices(),
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
    redact: (text, opts) => redactor.redact(text, opts),
    async close() {
      unwatch();
      settings.close();
    },
  };
}
