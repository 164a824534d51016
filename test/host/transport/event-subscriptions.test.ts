/* eslint-disable @typescript-eslint/no-explicit-any -- event frames are read as plain JSON here. */
// docs/contract.md §11 `events.subscribe`: a window hears what it shows, not every session's stream.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { EventHub } from "../../../electron/host/events.js";
import { eventTopic } from "../../../electron/host/rpc/events.js";
import { startWebServer, type WebServer } from "../../../electron/web/server.js";
import { startSessionRig, type SessionRig } from "../sessions/support/session-rig.js";
import { tempHome } from "../support/temp-home.js";

const token = "t".repeat(40);
let rig: SessionRig;
let server: WebServer;
let staticDir: ReturnType<typeof tempHome>;

beforeEach(async () => {
  rig = await startSessionRig();
  staticDir = tempHome("hermes-static-");
  server = await startWebServer({
    router: rig.host.router,
    events: rig.host.events,
    token,
    port: 0,
    staticDir: staticDir.dir,
  });
});
afterEach(async () => {
  await server.close();
  await rig.dispose();
  staticDir.cleanup();
});

/** A connection like a window's: it records every event frame and answers calls by id. */
async function connect() {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/rpc`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
  const events: any[] = [];
  const waiting = new Map<number, (frame: any) => void>();
  ws.on("message", (data) => {
    const frame = JSON.parse(data.toString());
    if (frame.method === "event") events.push(frame.params);
    else waiting.get(frame.id)?.(frame);
  });
  let seq = 0;
  const call = (method: string, params: unknown = {}) =>
    new Promise<any>((resolve) => {
      const id = ++seq;
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    });
  return { ws, events, call };
}

describe("events.subscribe", () => {
  it("a second window does not receive the first one's deltas; an unsubscribed script hears all", async () => {
    const first = await connect();
    const second = await connect();
    const script = await connect();
    const a = (await first.call("session.create", {})).result.sessionId;
    const b = (await second.call("session.create", {})).result.sessionId;
    expect((await first.call("events.subscribe", { topics: [`session:${a}`, "sessions"] })).result).toEqual({
      topics: [`session:${a}`, "sessions"],
    });
    await second.call("events.subscribe", { topics: [`session:${b}`, "sessions"] });

    rig.main.enqueue("Reply for the first window");
    await first.call("session.send", { sessionId: a, text: "hello" });
    await rig.idle(a);
    // Delivery is in order per socket: a frame sent after the turn's last event lands after it.
    await second.call("host.info", {});
    await script.call("host.info", {});

    const deltasFor = (events: any[], id: string) =>
      events.filter((e) => e.type === "session.delta" && e.session_id === id);
    expect(deltasFor(first.events, a).length).toBeGreaterThan(0);
    expect(second.events.filter((e) => e.session_id === a)).toEqual([]);
    expect(deltasFor(script.events, a).length).toBeGreaterThan(0);
    // The list change of the new session's title reaches both windows through `sessions`.
    expect(second.events.some((e) => e.type === "sessions.changed")).toBe(true);
    for (const c of [first, second, script]) c.ws.close();
  });

  it("subscribing again replaces the set; host notices always arrive", async () => {
    const window = await connect();
    await window.call("events.subscribe", { topics: ["sessions"] });
    rig.host.events.emit("settings.changed", null, {});
    rig.host.events.emit("host.changed", null, {});
    await window.call("events.subscribe", { topics: ["settings"] });
    rig.host.events.emit("settings.changed", null, {});
    rig.host.events.emit("sessions.changed", null, {});
    await window.call("host.info", {});
    expect(window.events.map((e) => e.type)).toEqual(["host.changed", "settings.changed"]);
    window.ws.close();
  });

  it("refuses a topic that is not one, naming it", async () => {
    const window = await connect();
    const reply = await window.call("events.subscribe", { topics: ["session:"] });
    expect(reply.error.data.reason).toBe("invalid_params");
    expect(reply.error.message).toContain("params.topics.0");
    window.ws.close();
  });
});

describe("event topics", () => {
  it("every event frame belongs to one topic", () => {
    expect(eventTopic({ type: "session.delta", session_id: "s1" })).toBe("session:s1");
    expect(eventTopic({ type: "sessions.changed", session_id: null })).toBe("sessions");
    expect(eventTopic({ type: "plugin.consent_required", session_id: null })).toBe("settings");
    expect(eventTopic({ type: "host.changed", session_id: null })).toBe("host");
    expect(eventTopic({ type: "plugin.chart-writer.chart.ready", session_id: "s1" })).toBe(
      "plugin:chart-writer",
    );
    expect(eventTopic({ type: "no.such", session_id: null })).toBeNull();
  });

  it("a plugin's events reach a window subscribed to that plugin, not one subscribed to another", () => {
    const hub = new EventHub();
    const heard: string[] = [];
    hub.subscribe((frame) => heard.push(`a:${frame.params.type}`), "a");
    hub.subscribe((frame) => heard.push(`b:${frame.params.type}`), "b");
    hub.setTopics("a", ["plugin:next-prompt"]);
    hub.setTopics("b", ["plugin:chart-writer"]);
    hub.emitPlugin("next-prompt", "suggestion", "s1", { text: "x" });
    expect(heard).toEqual(["a:plugin.next-prompt.suggestion"]);
  });
});
