/**
 * host_memory measures once the plugins are registered, asked over the host's RPC
 * (scripts/bench/host-rpc.mjs), not after a fixed sleep: against a real web host (the built tree)
 * it waits for every plugin's `register`, and names a plugin that failed instead of measuring.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the bench scripts, without type declarations.
import { connectHost, pluginsRegistered } from "../../../scripts/bench/host-rpc.mjs";
// @ts-expect-error: a plain ES module of the bench scripts, without type declarations.
import { homeWithPlugins } from "../../../scripts/bench/plugin-host-rig.mjs";
// @ts-expect-error: a plain ES module of the bench scripts, without type declarations.
import { spawnUntilUrl, stopChild } from "../../../scripts/bench/spawn-url.mjs";
// @ts-expect-error: a plain ES module of the bench scripts, without type declarations.
import { appLaunch } from "../../../scripts/bench/window-start.mjs";

type Call = (method: string, params?: object) => Promise<{ plugins: { id: string; status: string }[] }>;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function hostWith(count: number, broken?: string) {
  const source = (id: string) =>
    `export function register(ctx) { ctx.registerCommand({ name: "${id}-cmd", handler: () => "${id}" }); }`;
  const { home, cleanup } = homeWithPlugins(count, source) as { home: string; cleanup: () => void };
  cleanups.push(cleanup);
  if (broken) writeFileSync(join(home, "plugins", broken, "index.js"), "export function register( {");
  const { child, url } = spawnUntilUrl(appLaunch(home), { name: "web host" }) as {
    child: unknown;
    url: Promise<string>;
  };
  cleanups.push(() => stopChild(child) as Promise<void>);
  const host = (await connectHost(await url)) as { call: Call; close: () => void };
  cleanups.push(() => host.close());
  // Plugins start once the window says it is interactive (one start gate), as the bench does.
  await host.call("host.interactive");
  return host;
}

describe("host_memory's wait for the plugins", () => {
  it("returns once every plugin is registered, when plugins.list says all are loaded", async () => {
    const host = await hostWith(3);
    expect(await pluginsRegistered(host.call, 3)).toBe(3);
    const { plugins } = await host.call("plugins.list");
    expect(plugins.filter((p) => p.status === "loaded")).toHaveLength(3);
  });

  it("names a plugin that failed to load instead of measuring without it", async () => {
    const host = await hostWith(2, "p1");
    await expect(pluginsRegistered(host.call, 2)).rejects.toThrow(
      /1 of 2 plugins registered; not: p1 \(failed: /,
    );
  });
});
