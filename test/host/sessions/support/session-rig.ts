/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
/**
 * A real host for session tests: a temp home, two fake providers (main and fallback), the keytar
 * vault with keys from `key_env`, an injected ManualClock, and every event frame recorded.
 */
import { randomUUID } from "node:crypto";
import { vi } from "vitest";
import { ManualClock } from "../../../fixtures/manual-clock.js";
import type { SettingsDocument } from "../../../../electron/host/config/config-schema.js";
import { createHost, type Host, type PluginTimings } from "../../../../electron/host/create-host.js";
import type { EventFrame } from "../../../../electron/host/rpc/frames.js";
import { createKeytarVault } from "../../../../electron/host/secrets/vault.js";
import { startFakeProvider, type FakeProvider } from "../../../fixtures/fake-provider.js";
import { requireSecretService } from "../../support/test-host.js";
import { tempHome } from "../../support/temp-home.js";

export const MAIN_KEY = "sk-test-0000000000000000000000000000main";
export const BACKUP_KEY = "sk-test-1111111111111111111111111111back";

export type RpcReply<T = any> = { result?: T; error?: { message: string; data: { reason: string } } };

export interface SessionRig {
  host: Host;
  home: string;
  clock: ManualClock;
  main: FakeProvider;
  backup: FakeProvider;
  frames: EventFrame["params"][];
  call<T = any>(method: string, params?: unknown, connectionId?: string): Promise<RpcReply<T>>;
  /** Calls and returns the result, failing the test on an error frame. */
  ok<T = any>(method: string, params?: unknown, connectionId?: string): Promise<T>;
  events(type: string, sessionId?: string): any[];
  waitForEvent(type: string, match?: (payload: any) => boolean): Promise<any>;
  /** Waits until the session has no running or waiting turn. */
  idle(sessionId: string): Promise<void>;
  restart(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startSessionRig(
  options: {
    home?: string;
    configure?: (doc: SettingsDocument, rig: { main: FakeProvider; backup: FakeProvider }) => void;
    /** E.g. heartbeats slow enough that moving the manual clock by hours does not stop plugins. */
    pluginTimings?: PluginTimings;
  } = {},
): Promise<SessionRig> {
  requireSecretService();
  const temp = options.home ? null : tempHome("hermes-sessions-");
  const home = options.home ?? temp!.dir;
  const main = await startFakeProvider({ apiKey: MAIN_KEY });
  const backup = await startFakeProvider({ apiKey: BACKUP_KEY });
  const clock = new ManualClock();
  const service = `hermes-desktop-test-${randomUUID()}`;
  const frames: EventFrame["params"][] = [];
  let seq = 0;

  const open = (): Host => {
    const env = { HERMES_TEST_MAIN_KEY: MAIN_KEY, HERMES_TEST_BACKUP_KEY: BACKUP_KEY };
    const host = createHost({
      home,
      vault: createKeytarVault({ service, env }),
      mode: "web",
      version: "0.0.0-test",
      clock,
      bundledPluginsDir: null,
      ...(options.pluginTimings && { pluginTimings: options.pluginTimings }),
    });
    host.settings.update((doc: SettingsDocument) => {
      doc.providers = {
        main: { name: "Main", base_url: main.baseURL, key_env: "HERMES_TEST_MAIN_KEY" },
        backup: { name: "Backup", base_url: backup.baseURL, key_env: "HERMES_TEST_BACKUP_KEY" },
      };
      doc.model = { provider: "main", model: "fake/chat-small" };
      options.configure?.(doc, { main, backup });
    });
    host.events.subscribe((frame) => frames.push(frame.params));
    return host;
  };

  const rig: SessionRig = {
    host: open(),
    home,
    clock,
    main,
    backup,
    frames,
    async call(method, params = {}, connectionId = "window-1") {
      return (await rig.host.router.handle(
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
    events: (type, sessionId) =>
      frames
        .filter((f) => f.type === type && (sessionId === undefined || f.session_id === sessionId))
        .map((f) => f.payload),
    async waitForEvent(type, match = () => true) {
      return vi.waitFor(
        () => {
          const found = frames.find((f) => f.type === type && match(f.payload));
          if (!found) throw new Error(`no ${type} event yet`);
          return found.payload;
        },
        { timeout: 10_000, interval: 5 },
      );
    },
    idle: (sessionId) => rig.host.sessions.idle(sessionId),
    async restart() {
      await rig.host.close();
      rig.host = open();
    },
    async dispose() {
      await rig.host.close();
      await main.close();
      await backup.close();
      temp?.cleanup();
    },
  };
  return rig;
}
