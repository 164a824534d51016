/**
 * A host whose reply is being watched when it dies: it streams a long reply from the given
 * provider and prints every `session.delta` it emits as `DELTA <json text>` (stdout to a pipe is
 * synchronous on Linux, so a printed line is a delta a window could have shown). The test
 * SIGKILLs it mid-stream. Usage: node --import tsx stream-kill-child.ts <home> <baseURL> <key>
 */
import { randomUUID } from "node:crypto";
import { createHost } from "../../../../electron/host/create-host.js";
import { createKeytarVault } from "../../../../electron/host/secrets/vault.js";

const [home, baseURL, key] = process.argv.slice(2) as [string, string, string];
const host = createHost({
  home,
  vault: createKeytarVault({ service: `hermes-desktop-test-${randomUUID()}`, env: { KILL_KEY: key } }),
  mode: "web",
  version: "0.0.0-test",
  bundledPluginsDir: null,
});
host.settings.update((doc) => {
  doc.providers = { main: { name: "Main", base_url: baseURL, key_env: "KILL_KEY" } };
  doc.model = { provider: "main", model: "fake/chat-small" };
});
const { sessionId } = host.sessions.create({ title: `Kill ${randomUUID()}` }, "window-1");
host.events.subscribe((frame) => {
  if (frame.params.type === "session.delta") {
    console.log(`DELTA ${JSON.stringify((frame.params.payload as { text: string }).text)}`);
  }
});
console.log(`SESSION ${sessionId}`);
host.sessions.send(sessionId, "Tell me a long story", undefined, "window-1");
setInterval(() => undefined, 1000);
