// The event table is the contract of what the host pushes: clients take only what it declares.
import { describe, expect, it } from "vitest";
import { EventHub } from "../../../electron/host/events.js";
import { eventNames, eventTable, readHostEvent } from "../../../electron/host/rpc/events.js";

describe("event table", () => {
  it("reads a declared event with the right scope, and nothing else", () => {
    const delta = { type: "session.delta", session_id: "s1", payload: { turnId: "t", text: "hi" } };
    expect(readHostEvent(delta)).toBe(delta);
    expect(readHostEvent({ type: "settings.changed", session_id: null, payload: {} })).not.toBeNull();
    expect(readHostEvent({ type: "session.delta", session_id: null, payload: {} })).toBeNull();
    expect(readHostEvent({ type: "settings.changed", session_id: "s1", payload: {} })).toBeNull();
    expect(readHostEvent({ type: "no.such.event", session_id: null, payload: {} })).toBeNull();
    expect(readHostEvent({ type: "toString", session_id: null, payload: {} })).toBeNull();
    expect(readHostEvent(null)).toBeNull();
    expect(readHostEvent("session.delta")).toBeNull();
  });

  it("sends frames in the shape clients read", () => {
    const hub = new EventHub();
    const frames: unknown[] = [];
    hub.subscribe((frame) => frames.push(frame));
    hub.emit("session.title", "s1", { title: "Trip" });
    hub.emit("plugins.changed", null, {});
    expect(frames).toEqual([
      {
        jsonrpc: "2.0",
        method: "event",
        params: { type: "session.title", session_id: "s1", payload: { title: "Trip" } },
      },
      { jsonrpc: "2.0", method: "event", params: { type: "plugins.changed", session_id: null, payload: {} } },
    ]);
    for (const name of eventNames) expect(eventTable[name].doc.length).toBeGreaterThan(0);
  });
});
