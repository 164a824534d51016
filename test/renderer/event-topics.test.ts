// docs/contract.md §11: the window subscribes to what it shows — the open chat, not every session.
import { describe, expect, it } from "vitest";
import { createAppStores } from "../../renderer/src/stores/app-stores.js";
import { connectEventTopics } from "../../renderer/src/stores/event-topics.js";
import { fakeClient } from "./fake-client.js";

const plugin = (id: string) =>
  ({
    id,
    name: id,
    version: "1.0.0",
    description: "",
    enabled: true,
    status: "loaded",
    capabilities: [],
    pendingCapabilities: [],
    pages: [],
  }) as never;

describe("the window's event topics", () => {
  it("waits for the plugin list, then follows the open chat; a reconnect sends the set again", async () => {
    const client = fakeClient({
      "events.subscribe": ({ topics }) => ({ topics }),
      "plugins.list": () => ({ plugins: [plugin("next-prompt")] }),
      "session.messages": () => ({ messages: [] }),
      "session.get": () => ({}) as never,
    });
    const stores = createAppStores(client);
    const stop = connectEventTopics(client, stores);
    // Until the plugin list is known the connection keeps hearing everything.
    expect(client.callsOf("events.subscribe")).toEqual([]);
    await stores.plugins.getState().load();
    expect(client.callsOf("events.subscribe").at(-1)).toEqual({
      topics: ["sessions", "settings", "mcp", "plugin:next-prompt"],
    });
    void stores.chat.transcript.getState().open("s1");
    // The subscription is asked for before the transcript is read.
    const order = client.calls.map((c) => c.method);
    expect(order.indexOf("events.subscribe", 1)).toBeLessThan(order.indexOf("session.messages"));
    expect(client.callsOf("events.subscribe").at(-1)).toEqual({
      topics: ["sessions", "settings", "mcp", "session:s1", "plugin:next-prompt"],
    });
    const sent = client.callsOf("events.subscribe").length;
    void stores.chat.transcript.getState().open("s1");
    expect(client.callsOf("events.subscribe")).toHaveLength(sent);
    client.setStatus("reconnecting");
    client.setStatus("connected");
    expect(client.callsOf("events.subscribe")).toHaveLength(sent + 1);
    stop();
  });
});
