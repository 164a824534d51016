/**
 * The window subscribes to the events of what it shows (docs/contract.md §11 `events.subscribe`):
 * the session list, settings, MCP, the open chat's session and the plugins' own events — not
 * every other session's stream. A new connection hears everything again, so the set is sent anew
 * after a reconnect.
 */
import type { StoreApi } from "zustand/vanilla";
import type { HermesClient } from "../api/client.js";
import type { PluginsState } from "./plugins/plugins-store.js";
import type { TranscriptState } from "./chat/transcript-store.js";

/** What decides the topics: the plugin list and the chat the window shows. */
export interface TopicSources {
  plugins: StoreApi<PluginsState>;
  chat: { transcript: StoreApi<TranscriptState> };
}

const alwaysShown = ["sessions", "settings", "mcp"] as const;

/** The topics this window needs now, or null while the plugin list (whose events it shows) is unknown. */
export function windowTopics(stores: TopicSources): string[] | null {
  const plugins = stores.plugins.getState().plugins;
  if (plugins.kind === "loading") return null;
  const sessionId = stores.chat.transcript.getState().sessionId;
  return [
    ...alwaysShown,
    ...(sessionId ? [`session:${sessionId}`] : []),
    ...(plugins.kind === "ready" ? plugins.data.map((p) => `plugin:${p.id}`) : []),
  ];
}

/** Keeps the connection's subscription equal to `windowTopics`; returns the function that stops it. */
export function connectEventTopics(client: HermesClient, stores: TopicSources): () => void {
  let sent: string | null = null;
  const sync = (force = false): void => {
    const topics = windowTopics(stores);
    if (!topics) return;
    const key = topics.join("\n");
    if (key === sent && !force) return;
    sent = key;
    // Sent before whatever the change leads to (opening a chat reads its transcript next), so the
    // session's first events are not filtered out; a failed call leaves the connection hearing all.
    void client.call("events.subscribe", { topics }).catch(() => {
      sent = null;
    });
  };
  const stopTranscript = stores.chat.transcript.subscribe(() => sync());
  const stopPlugins = stores.plugins.subscribe(() => sync());
  const stopStatus = client.onStatusChange((status) => {
    if (status === "connected") sync(true);
  });
  sync();
  return () => {
    stopTranscript();
    stopPlugins();
    stopStatus();
  };
}
