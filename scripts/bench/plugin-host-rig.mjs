// A real host (the built tree) on a temp home with generated user plugins, for the plugin benches.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const loadHost = (path) => import(pathToFileURL(join(root, "out", "electron", "host", path)).href);

/** An in-memory keychain: the benches measure their request path, not the OS keychain. */
export function memoryKeychain() {
  const secrets = new Map();
  return {
    get: async (account) => secrets.get(account) ?? null,
    set: async (account, secret) => void secrets.set(account, secret),
    delete: async (account) => secrets.delete(account),
    list: async () => [...secrets].map(([account, password]) => ({ account, password })),
  };
}

/** Writes `count` plugins (`p0`, `p1`, …) whose module is `source(id)`, all enabled in config.yaml. */
export function homeWithPlugins(count, source) {
  const home = mkdtempSync(join(tmpdir(), "hermes-bench-plugins-"));
  const ids = Array.from({ length: count }, (_, i) => `p${i}`);
  for (const id of ids) {
    const dir = join(home, "plugins", id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "plugin.yaml"), `name: ${id}\nversion: 1.0.0\nmain: index.js\n`);
    writeFileSync(join(dir, "index.js"), source(id));
  }
  writeFileSync(join(home, "config.yaml"), `plugins:\n  enabled: [${ids.join(", ")}]\n`);
  return { home, ids, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

export async function startHost(home, extra = {}) {
  const { createHost } = await loadHost("create-host.js");
  const { createVault } = await loadHost("secrets/vault.js");
  const vault = createVault(memoryKeychain(), {});
  return {
    host: createHost({ home, vault, mode: "web", version: "bench", bundledPluginsDir: null, ...extra }),
    vault,
  };
}

export async function allLoaded(host, count, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await host.plugins.ready();
    const list = host.plugins.list();
    if (list.length >= count && list.every((p) => p.status === "loaded")) return;
    if (Date.now() > deadline) {
      throw new Error(
        `plugins not loaded: ${list
          .filter((p) => p.status !== "loaded")
          .map((p) => `${p.id}=${p.status} ${p.error ?? ""}`)
          .join(", ")}`,
      );
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}
