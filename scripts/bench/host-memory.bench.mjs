// host_memory (SPEC §12): resident memory of the web-mode host and its plugin host (with the
// workers), idle, once its 20 plugins are registered (asked over the host's RPC, not guessed with a
// sleep), with 1,000 chats of 20 messages each in the store; against the same home with no plugin
// enabled (reported) and its floor, a bare Node process running one empty worker. Target: ≤ 350 MB.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { figure } from "./figure.mjs";
import { connectHost, pluginsRegistered } from "./host-rpc.mjs";
import { homeWithPlugins } from "./plugin-host-rig.mjs";
import { seedSessions } from "./seed-sessions.mjs";
import { spawnUntilUrl, stopChild } from "./spawn-url.mjs";
import { appLaunch } from "./window-start.mjs";

const PLUGINS = 20;
const SESSIONS = 1000;
const MESSAGES = 20;
/** After the plugins are registered: the host's start-up garbage collected, its heap settled. */
const SETTLE_MS = 2000;

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

async function measure(home, plugins) {
  const { child, url } = spawnUntilUrl(appLaunch(home), { name: "web host" });
  try {
    const host = await connectHost(await url);
    try {
      // As a window does once it is usable: plugins start at this gate (30 s without it).
      await host.call("host.interactive");
      await pluginsRegistered(host.call, plugins);
      // The store is open and its chats listed, as the app's first screen has them.
      const { sessions } = await host.call("session.list");
      if (sessions.length < Math.min(SESSIONS, 50))
        throw new Error(`the host lists ${sessions.length} chats`);
    } finally {
      host.close();
    }
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const own = rssKb(child.pid);
    const pluginHost = children(child.pid).reduce((sum, pid) => sum + rssKb(pid), 0);
    return { host: own / 1024, pluginHost: pluginHost / 1024 };
  } finally {
    await stopChild(child);
  }
}

/** The floor: a bare Node process that started one empty worker, resident MB. */
async function emptyWorker() {
  const source = `const { Worker } = require("node:worker_threads");
const w = new Worker("require('node:worker_threads').parentPort.postMessage(0)", { eval: true, env: {} });
w.once("message", () => setTimeout(() => console.log("ready"), ${SETTLE_MS}));
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    await new Promise((resolve) => child.stdout.once("data", resolve));
    return rssKb(child.pid) / 1024;
  } finally {
    await stopChild(child);
  }
}

export async function run() {
  const source = (id) =>
    `export function register(ctx) { ctx.registerCommand({ name: "${id}-cmd", handler: () => "${id}" }); }`;
  const { home, cleanup } = homeWithPlugins(PLUGINS, source);
  try {
    const seeded = await seedSessions(home, { sessions: SESSIONS, messages: MESSAGES });
    if (seeded.messages !== SESSIONS * MESSAGES) throw new Error(`seeded ${seeded.messages} messages`);
    const config = readFileSync(join(home, "config.yaml"), "utf8");
    const withPlugins = await measure(home, PLUGINS);
    writeFileSync(join(home, "config.yaml"), config.replace(/enabled: \[[^\]]*\]/, "enabled: []"));
    const without = await measure(home, 0);
    const floor = await emptyWorker();
    const total = withPlugins.host + withPlugins.pluginHost;
    const none = without.host + without.pluginHost;
    return [
      figure({
        name: "host_memory",
        value: total,
        unit: "MB",
        floor,
        target: { on: "value", max: 350 },
        text:
          `${total.toFixed(0)} MB resident (host ${withPlugins.host.toFixed(0)} MB + plugin host ${withPlugins.pluginHost.toFixed(0)} MB) ` +
          `idle with ${PLUGINS} plugins registered and ${SESSIONS} chats × ${MESSAGES} messages; ${none.toFixed(0)} MB with no plugin ` +
          `enabled (${((total - none) / PLUGINS).toFixed(1)} MB per plugin); floor: a bare Node process with one empty worker ` +
          `${floor.toFixed(0)} MB (${(total / floor).toFixed(1)}x)`,
        extra: {
          host_mb: withPlugins.host,
          plugin_host_mb: withPlugins.pluginHost,
          no_plugins_mb: none,
          per_plugin_mb: (total - none) / PLUGINS,
          plugins: PLUGINS,
          sessions: SESSIONS,
          messages: SESSIONS * MESSAGES,
        },
      }),
    ];
  } finally {
    cleanup();
  }
}
