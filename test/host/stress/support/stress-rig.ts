/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
/**
 * One real host for the stress suites: a temp home, two real fake providers (`main` for chats,
 * `aux` for the auxiliary slots), keys through `key_env`, plugins from `plugins/` with their
 * capabilities granted, every event frame counted, and a ManualClock the rig can `pump` (advanced
 * in steps while a test waits), so a 120 s provider watchdog or a 60 s plugin deadline is met in
 * real milliseconds. Plugin heartbeats are slow enough that pumping never stops a plugin.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { systemClock } from "../../../../electron/host/clock.js";
import { ManualClock } from "../../../fixtures/manual-clock.js";
import type { SettingsDocument } from "../../../../electron/host/config/config-schema.js";
import { createHost, type Host, type PluginTimings } from "../../../../electron/host/create-host.js";
import { capabilitiesHash } from "../../../../electron/host/plugins/capabilities/capabilities.js";
import { createKeytarVault } from "../../../../electron/host/secrets/vault.js";
import {
  startFakeProvider,
  type FakeProvider,
  type FakeProviderOptions,
} from "../../../fixtures/fake-provider.js";
import { requireSecretService } from "../../support/test-host.js";
import { tempHome } from "../../support/temp-home.js";

export const MAIN_KEY = "sk-test-0000000000000000000000000000main";
export const AUX_KEY = "sk-test-2222222222222222222222222222auxx";

export interface StressPlugin {
  id: string;
  source: string;
  capabilities?: string[];
  /** Extra manifest lines (e.g. pages). */
  manifest?: string;
}

export interface StressRig {
  host: Host;
  home: string;
  /** The manual clock the host runs on; null with `realClock` (then `pump` only waits). */
  clock: ManualClock | null;
  main: FakeProvider;
  aux: FakeProvider;
  /** How many event frames of each type were published (frames themselves are not kept). */
  frameCounts: Map<string, number>;
  call<T = any>(method: string, params?: unknown, connectionId?: string): Promise<RpcReply<T>>;
  ok<T = any>(method: string, params?: unknown, connectionId?: string): Promise<T>;
  /** Resolves with the first later frame of `type` matching `match` (real time bound). */
  nextEvent(
    type: string,
    match: (payload: any, sessionId: string | null) => boolean,
    timeoutMs?: number,
  ): Promise<any>;
  /**
   * Awaits `work` while advancing the manual clock by `stepMs` every few real milliseconds; rejects
   * when it has not settled after `realMs` of real time (a step left busy).
   */
  pump<T>(work: Promise<T>, what: string, options?: { stepMs?: number; realMs?: number }): Promise<T>;
  command(name: string, args: unknown, sessionId?: string): Promise<any>;
  dispose(): Promise<void>;
}

export type RpcReply<T = any> = { result?: T; error?: { message: string; data: { reason: string } } };

export async function startStressRig(options: {
  plugins?: StressPlugin[];
  configure?: (doc: SettingsDocument) => void;
  pluginTimings?: PluginTimings;
  /**
   * Advance the manual clock while the plugins start (for a register that never settles, met by
   * its deadline); slowly, so a slow worker start is not cut short by its own 60 s bound.
   */
  pumpStart?: boolean;
  /**
   * The host on the system clock (a soak: side-question tokens expire and are swept as in use,
   * where a frozen manual clock would keep every one).
   */
  realClock?: boolean;
  /** Both providers' answer when nothing is queued (default: an echo). */
  defaultReply?: FakeProviderOptions["defaultReply"];
}): Promise<StressRig> {
  requireSecretService();
  const temp = tempHome("hermes-stress-");
  const home = temp.dir;
  const main = await startFakeProvider({ apiKey: MAIN_KEY, defaultReply: options.defaultReply });
  const aux = await startFakeProvider({ apiKey: AUX_KEY, defaultReply: options.defaultReply });
  const clock = options.realClock ? null : new ManualClock(Date.now());
  const plugins = options.plugins ?? [];
  for (const plugin of plugins) {
    const dir = path.join(home, "plugins", plugin.id);
    fs.mkdirSync(dir, { recursive: true });
    const caps = plugin.capabilities?.length ? `capabilities: [${plugin.capabilities.join(", ")}]\n` : "";
    fs.writeFileSync(
      path.join(dir, "plugin.yaml"),
      `name: ${plugin.id}\nversion: 1.0.0\ndescription: Stress plugin ${plugin.id}.\nmain: index.js\n${caps}${plugin.manifest ?? ""}`,
    );
    fs.writeFileSync(path.join(dir, "index.js"), plugin.source);
    for (const [name, text] of Object.entries(pageFiles(plugin))) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
  }
  const env = { HERMES_STRESS_MAIN_KEY: MAIN_KEY, HERMES_STRESS_AUX_KEY: AUX_KEY };
  const host = createHost({
    home,
    vault: createKeytarVault({ service: `hermes-desktop-test-${randomUUID()}`, env }),
    mode: "web",
    version: "0.0.0-test",
    clock: clock ?? systemClock,
    bundledPluginsDir: null,
    pluginTimings: {
      heartbeat: { intervalMs: 100 * 3_600_000, timeoutMs: 200 * 3_600_000 },
      ...options.pluginTimings,
    },
  });
  host.settings.update((doc: SettingsDocument) => {
    doc.providers = {
      main: { name: "Main", base_url: main.baseURL, key_env: "HERMES_STRESS_MAIN_KEY" },
      aux: { name: "Aux", base_url: aux.baseURL, key_env: "HERMES_STRESS_AUX_KEY" },
    };
    doc.model = { provider: "main", model: "fake/chat-small" };
    doc.plugins = {
      enabled: plugins.map((p) => p.id),
      entries: Object.fromEntries(
        plugins
          .filter((p) => p.capabilities?.length)
          .map((p) => [
            p.id,
            {
              granted_capabilities: p.capabilities!,
              capabilities_consent: {
                hash: capabilitiesHash(p.capabilities!),
                granted_at: "2026-12-01T10:00:00Z",
              },
            },
          ]),
      ),
    };
    options.configure?.(doc);
  });
  const frameCounts = new Map<string, number>();
  const waiters = new Set<{
    type: string;
    match: (p: any, s: string | null) => boolean;
    resolve(p: any): void;
  }>();
  host.events.subscribe((frame) => {
    const { type, payload, session_id } = frame.params;
    frameCounts.set(type, (frameCounts.get(type) ?? 0) + 1);
    for (const waiter of waiters) {
      if (waiter.type === type && waiter.match(payload, session_id ?? null)) {
        waiters.delete(waiter);
        waiter.resolve(payload);
      }
    }
  });
  let seq = 0;
  const rig: StressRig = {
    host,
    home,
    clock,
    main,
    aux,
    frameCounts,
    async call(method, params = {}, connectionId = "window-1") {
      return (await host.router.handle(
        { jsonrpc: "2.0", id: ++seq, method, params },
        { connectionId },
      )) as never;
    },
    async ok(method, params = {}, connectionId) {
      const reply = await rig.call(method, params, connectionId);
      if (reply.error)
        throw new Error(`${method} failed: ${reply.error.data.reason}: ${reply.error.message}`);
      return reply.result;
    },
    nextEvent(type, match, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const waiter = { type, match, resolve };
        waiters.add(waiter);
        setTimeout(() => {
          if (waiters.delete(waiter)) reject(new Error(`no ${type} event within ${timeoutMs} ms`));
        }, timeoutMs).unref();
      });
    },
    async pump(work, what, { stepMs = 5_000, realMs = 20_000 } = {}) {
      let settled = false;
      const watched = work.finally(() => void (settled = true));
      watched.catch(() => undefined); // met by the caller's await below; never an unhandled rejection meanwhile
      const started = Date.now();
      while (!settled) {
        if (Date.now() - started > realMs) throw new Error(`${what} was still busy after ${realMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
        if (!settled) clock?.advance(stepMs);
      }
      return watched;
    },
    async command(name, args, sessionId = "none") {
      const entry = host.pluginRegistries.commands.get(name);
      if (!entry) throw new Error(`/${name} is not registered`);
      const raw = await entry.handler(typeof args === "string" ? args : JSON.stringify(args), {
        sessionId,
        gatewaySessionKey: "window-1",
      });
      return typeof raw === "string" && raw.startsWith("{") ? JSON.parse(raw) : raw;
    },
    async dispose() {
      await host.close();
      await main.close();
      await aux.close();
      temp.cleanup();
    },
  };
  if (options.pumpStart)
    await rig.pump(host.plugins.ready(), "the plugins' start", { stepMs: 20, realMs: 60_000 });
  else await host.plugins.ready();
  return rig;
}

function pageFiles(plugin: StressPlugin): Record<string, string> {
  return plugin.manifest?.includes("pages:") ? { "page/index.html": "<!doctype html><title>p</title>" } : {};
}
