// A script's connection to a running web host (as README's "Web mode" describes: the launch URL's
// token as a Bearer header on /rpc), for the benches that drive a spawned host.
import { once } from "node:events";
import WebSocket from "ws";

/** Connects to the host at `launchUrl`; `call(method, params)` resolves to the result or throws. */
export async function connectHost(launchUrl) {
  const url = new URL(launchUrl);
  const token = url.searchParams.get("token");
  const ws = new WebSocket(`ws://${url.host}/rpc`, { headers: { Authorization: `Bearer ${token}` } });
  // Answers are matched by id as they come (event frames arrive in between).
  const waiting = new Map();
  ws.on("message", (data) => {
    const frame = JSON.parse(String(data));
    const settle = waiting.get(frame.id);
    if (!settle) return;
    waiting.delete(frame.id);
    settle(frame);
  });
  await once(ws, "open");
  let id = 0;
  const call = async (method, params = {}) => {
    const myId = ++id;
    const answer = new Promise((resolve) => waiting.set(myId, resolve));
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: myId, method, params }));
    const frame = await answer;
    if (frame.error) throw new Error(`${method}: ${frame.error.message}`);
    return frame.result;
  };
  return { call, close: () => ws.close() };
}

/**
 * Resolves once `count` plugins are registered (status `loaded`: discovered, started, `register`
 * run), asking `plugins.list` every 20 ms; throws naming the ones that are not, after `timeoutMs`
 * or as soon as one failed.
 */
export async function pluginsRegistered(call, count, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { plugins } = await call("plugins.list");
    const loaded = plugins.filter((p) => p.status === "loaded");
    if (loaded.length >= count) return loaded.length;
    const failed = plugins.filter((p) => p.status === "failed");
    if (failed.length || Date.now() > deadline) {
      const waiting = plugins.filter((p) => p.status === "loading" || p.status === "failed");
      throw new Error(
        `${loaded.length} of ${count} plugins registered; not: ${waiting
          .map((p) => `${p.id} (${p.status}${p.error ? `: ${p.error}` : ""})`)
          .join(", ")}`,
      );
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}
