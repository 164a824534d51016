// host_memory (docs/contract.md §12): resident memory of the web-mode host and its plugin host (with the
// workers), idle, with 20 plugins enabled and 1,000 sessions in the store, against the same home
// with no plugin enabled; the difference per plugin is the cost of one worker.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { figure } from "./figure.mjs";
import { homeWithPlugins, startHost } from "./plugin-host-rig.mjs";
import { spawnUntilUrl, stopChild } from "./spawn-url.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PLUGINS = 20;
const SESSIONS = 1000;

const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
const children = (pid) => {
  try {
    return execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
      .split("\n")
      .map((s) => Number(s.trim()))
      .filter(Boolean);
  } catch {
    return [];
  }
};

async function measure(home) {
  const { child, url } = spawnUntilUrl([join(root, "out", "app", "web.js"), "--home", home, "--port", "0"], {
    cwd: root,
    name: "web host",
  });
  try {
    await url;
    await new Promise((r) => setTimeout(r, 4000)); // plugins load; the heap settles
    const host = rssKb(child.pid);
    const pluginHost = children(child.pid).reduce((sum, pid) => sum + rssKb(pid), 0);
    return { host: host / 1024, pluginHost: pluginHost / 1024 };
  } finally {
    await stopChild(child);
  }
}

export async function run() {
  const source = (id) =>
    `export function register(ctx) { ctx.registerCommand({ name: "${id}-cmd", handler: () => "${id}" }); }`;
  const { home, cleanup } = homeWithPlugins(PLUGINS, source);
  try {
    const { host } = await startHost(home, { bundledPluginsDir: null });
    for (let i = 0; i < SESSIONS; i++) host.sessions.create({ title: `Session ${i}` }, "bench");
    await host.close();
    const config = readFileSync(join(home, "config.yaml"), "utf8");
    const withPlugins = await measure(home);
    writeFileSync(join(home, "config.yaml"), config.replace(/enabled: \[[^\]]*\]/, "enabled: []"));
    const without = await measure(home);
    const total = withPlugins.host + withPlugins.pluginHost;
    const base = without.host + without.pluginHost;
    return [
      figure({
        name: "host_memory",
        value: total,
        unit: "MB",
        floor: base,
        target: { on: "value", max: 350 },
        text: `${total.toFixed(0)} MB resident (host ${withPlugins.host.toFixed(0)} MB + plugin host ${withPlugins.pluginHost.toFixed(0)} MB) idle with ${PLUGINS} plugins and ${SESSIONS} sessions vs ${base.toFixed(0)} MB with none enabled (ratio ${(total / base).toFixed(2)}x; ${((total - base) / PLUGINS).toFixed(1)} MB per plugin)`,
        extra: { per_plugin_mb: (total - base) / PLUGINS, plugins: PLUGINS, sessions: SESSIONS },
      }),
    ];
  } finally {
    cleanup();
  }
}
