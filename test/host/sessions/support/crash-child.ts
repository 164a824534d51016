/**
 * A host that gets killed mid-reply: it starts a turn against the given provider (which stalls),
 * waits until the partial reply is on disk, prints `PARTIAL_SAVED <sessionId>` and keeps running
 * until the test SIGKILLs it. Usage: node --import tsx crash-child.ts <home> <baseURL> <key>
 */
import { randomUUID } from "node:crypto";
import { createHost } from "../../../../electron/host/create-host.js";
import { createKeytarVault } from "../../../../electron/host/secrets/vault.js";

const [home, baseURL, key] = process.argv.slice(2) as [string, string, string];
const host = createHost({
  home,
  vault: createKeytarVault({ service: `hermes-desktop-test-${randomUUID()}`, env: { CRASH_KEY: key } }),
  mode: "web",
  version: "0.0.0-test",
  bundledPluginsDir: null,
});
host.settings.update((doc) => {
  doc.providers = { main: { name: "Main", base_url: baseURL, key_env: "CRASH_KEY" } };
  doc.model = { provider: "main", model: "fake/chat-small" };
});
const { sessionId } = host.sessions.create({ title: "Crash" }, "window-1");
host.events.subscribe((frame) => {
  if (frame.params.type !== "session.delta") return;
  // Past the 100 ms write batch, so the partial reply is in the store.
  setTimeout(() => console.log(`PARTIAL_SAVED ${sessionId}`), 400);
});
host.sessions.send(sessionId, "Tell me a story", undefined, "window-1");
setInterval(() => undefined, 1000);
