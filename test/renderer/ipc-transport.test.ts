/**
 * The desktop client over a bridge shaped like electron/preload.ts's `window.hermes`, whose
 * methods reach the real host router (as main.ts wires IPC) on a temp data home.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { methodNames } from "../../electron/host/rpc/contract.js";
import type { EventFrame, ResponseFrame } from "../../electron/host/rpc/frames.js";
import { createHost, type Host } from "../../electron/host/create-host.js";
import type { Keychain } from "../../electron/host/secrets/keychain.js";
import { KeychainUnavailableError } from "../../electron/host/secrets/errors.js";
import { createVault } from "../../electron/host/secrets/vault.js";
import type { HostEvent } from "../../renderer/src/api/client.js";
import { createIpcClient, type HermesBridge } from "../../renderer/src/api/ipc-transport.js";
import { HermesRpcError } from "../../renderer/src/api/rpc-error.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function memoryKeychain(): Keychain {
  const secrets = new Map<string, string>();
  return {
    get: async (account) => secrets.get(account) ?? null,
    set: async (account, secret) => void secrets.set(account, secret),
    delete: async (account) => secrets.delete(account),
    list: async () => [...secrets].map(([account, password]) => ({ account, password })),
  };
}

function lockedKeychain(): Keychain {
  const refuse = async (): Promise<never> => {
    throw new KeychainUnavailableError("saving the key", "the Secret Service is locked");
  };
  return { get: refuse, set: refuse, delete: refuse, list: refuse };
}

async function startHost(keychain: Keychain = memoryKeychain()): Promise<Host> {
  const home = await mkdtemp(join(tmpdir(), "hermes-ipc-"));
  const host = createHost({ home, vault: createVault(keychain, {}), mode: "desktop", version: "0.0.0-test" });
  cleanups.push(async () => {
    await host.close();
    await rm(home, { recursive: true, force: true });
  });
  return host;
}

/** What preload.ts exposes, with main.ts's handler in place of ipcRenderer.invoke. */
function bridgeTo(host: Host): HermesBridge {
  const methods = Object.fromEntries(
    methodNames.map((method) => [
      method,
      async (params: unknown): Promise<ResponseFrame> =>
        (await host.router.handle(
          { jsonrpc: "2.0", id: 1, method, params: params ?? {} },
          { connectionId: "window:1" },
        )) as ResponseFrame,
    ]),
  );
  return {
    methods: Object.freeze(methods),
    pluginRequest: async (method, params) =>
      (await host.router.handle(
        { jsonrpc: "2.0", id: 1, method, params: params ?? {} },
        { connectionId: "window:1" },
      )) as ResponseFrame,
    onEvent: (listener: (frame: EventFrame) => void) => host.events.subscribe(listener),
  };
}

describe("IPC client", () => {
  it("returns the result of a method and is always connected", async () => {
    const client = createIpcClient(bridgeTo(await startHost()));
    expect(client.status).toBe("connected");
    const info = await client.call("host.info", {});
    expect(info).toMatchObject({ version: "0.0.0-test", mode: "desktop", notices: [] });
  });

  it("saves a provider whose key comes back only as its last 4 characters", async () => {
    const client = createIpcClient(bridgeTo(await startHost()));
    const saved = await client.call("providers.save", {
      id: "local",
      name: "Local",
      base_url: "http://127.0.0.1:9/v1",
      apiKey: "sk-test-0000-0000-wxyz",
    });
    expect(saved.provider).toMatchObject({ id: "local", hasKey: true, keyHint: "wxyz" });
    const { providers } = await client.call("providers.list", {});
    expect(providers.map((p) => [p.id, p.keyHint])).toEqual([["local", "wxyz"]]);
    expect(JSON.stringify(providers)).not.toContain("sk-test-0000-0000-wxyz");
  });

  it("throws a HermesRpcError carrying reason, message and key for an error frame", async () => {
    const client = createIpcClient(bridgeTo(await startHost()));
    const error = await client
      // Missing base_url, as a buggy caller could send it; the host's ajv check answers.
      .call("providers.save", { id: "local", name: "Local" } as never)
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(HermesRpcError);
    expect(error).toMatchObject({ name: "HermesRpcError", reason: "invalid_params", key: "base_url" });
    expect((error as Error).message).toContain("base_url");
  });

  it("passes the host's keychain_unavailable message through unchanged", async () => {
    const client = createIpcClient(bridgeTo(await startHost(lockedKeychain())));
    const error = await client
      .call("providers.save", {
        id: "cloud",
        name: "Cloud",
        base_url: "https://example.invalid/v1",
        apiKey: "sk-test-0000",
      })
      .catch((err: unknown) => err);
    expect(error).toMatchObject({ reason: "keychain_unavailable" });
    expect((error as Error).message).toMatch(/No system keychain is available/);
    expect((error as Error).message).not.toContain("sk-test-0000");
  });

  it("forwards host events as {type, session_id, payload} until unsubscribed", async () => {
    const host = await startHost();
    const client = createIpcClient(bridgeTo(host));
    const events: HostEvent[] = [];
    const stop = client.onEvent((event) => events.push(event));

    host.events.emit("settings.changed", null, {});
    host.events.emit("session.title", "s-1", { title: "Hello" });
    stop();
    host.events.emit("settings.changed", null, {});

    expect(events).toEqual([
      { type: "settings.changed", session_id: null, payload: {} },
      { type: "session.title", session_id: "s-1", payload: { title: "Hello" } },
    ]);
  });

  it("reports a method the bridge lacks, and a bridge that fails, as HermesRpcErrors", async () => {
    const bridge: HermesBridge = {
      methods: { "host.info": async () => Promise.reject(new Error("Render frame was disposed")) },
      pluginRequest: async () => Promise.reject(new Error("Render frame was disposed")),
      onEvent: () => () => undefined,
    };
    const client = createIpcClient(bridge);
    await expect(client.call("providers.list", {})).rejects.toMatchObject({ reason: "method_not_found" });
    await expect(client.call("host.info", {})).rejects.toMatchObject({
      reason: "connection_lost",
      message: expect.stringContaining("Render frame was disposed"),
    });
  });
});
