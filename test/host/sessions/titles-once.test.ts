/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSessionRig, type SessionRig } from "./support/session-rig.js";

let rig: SessionRig;
beforeEach(async () => {
  rig = await startSessionRig();
});
afterEach(async () => rig.dispose());

const titleRequests = () =>
  rig.main.requests.filter((r) => JSON.stringify((r.body as any)?.messages ?? []).includes("short title"));

describe("session titles", () => {
  it("are asked for once when a queued message follows the first reply", async () => {
    const { sessionId } = await rig.ok("session.create", {});
    rig.main.fault({ kind: "slow", delayMs: 150 });
    const first = await rig.ok("session.send", { sessionId, text: "First question" });
    const second = await rig.ok("session.send", { sessionId, text: "Second question" });
    expect([first.disposition, second.disposition]).toEqual(["started", "queued"]);
    await rig.idle(sessionId);
    await rig.host.sessions.settled();

    expect(titleRequests()).toHaveLength(1);
    const usage = await rig.ok("session.usage", { sessionId });
    const titleRows = usage.rows.filter((r: any) => r.category === "title_generation");
    expect(titleRows).toHaveLength(1);
    expect((await rig.ok("session.get", { sessionId })).titleState).toBe("set");
  });

  it("are asked for once when a steer runs as the next turn", async () => {
    const { sessionId } = await rig.ok("session.create", {});
    rig.main.fault({ kind: "slow", delayMs: 150 });
    await rig.ok("session.send", { sessionId, text: "First question" });
    await rig.ok("session.send", { sessionId, text: "keep it short", mode: "steer" });
    await rig.idle(sessionId);
    await rig.host.sessions.settled();
    expect(titleRequests()).toHaveLength(1);
  });
});
