/** A real host on a temp home with the real keychain vault under a per-test service name. */
import { randomUUID } from "node:crypto";
import { createHost, type Host, type HostOptions } from "../../../electron/host/create-host.js";
import { createKeytarVault, type Vault } from "../../../electron/host/secrets/vault.js";
import { tempHome } from "./temp-home.js";

export interface TestHost {
  host: Host;
  vault: Vault;
  home: string;
  service: string;
  call(
    method: string,
    params?: unknown,
    connectionId?: string,
  ): Promise<{ result?: unknown; error?: { message: string; data: { reason: string; key?: string } } }>;
  dispose(): Promise<void>;
}

export function requireSecretService(): void {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) {
    throw new Error(
      "These tests need a session D-Bus with an unlocked Secret Service. Run them through `npm test`, which provides one.",
    );
  }
}

export async function startTestHost(
  opts: {
    home?: string;
    env?: Record<string, string | undefined>;
    host?: Partial<Omit<HostOptions, "home" | "vault">>;
  } = {},
): Promise<TestHost> {
  const temp = opts.home ? null : tempHome();
  const home = opts.home ?? temp!.dir;
  const service = `hermes-desktop-test-${randomUUID()}`;
  const vault = createKeytarVault({ service, env: opts.env ?? {} });
  const host = createHost({ home, vault, mode: "web", version: "0.0.0-test", ...opts.host });
  let seq = 0;
  return {
    host,
    vault,
    home,
    service,
    async call(method, params = {}, connectionId = "test") {
      const response = await host.router.handle(
        { jsonrpc: "2.0", id: ++seq, method, params },
        { connectionId },
      );
      return response as never;
    },
    async dispose() {
      for (const account of await vault.listAccounts().catch(() => [])) {
        // The profile is everything after the first ":" (MCP accounts hold more colons).
        const colon = account.indexOf(":");
        const [provider, profile] =
          colon < 0 ? [account, undefined] : [account.slice(0, colon), account.slice(colon + 1)];
        await vault.deleteKey(provider, profile).catch(() => undefined);
      }
      await host.close();
      temp?.cleanup();
    },
  };
}
