import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backgroundJob } from "./support/background-job.js";
import { startSessionRig, type SessionRig } from "./support/session-rig.js";

let rig: SessionRig;
beforeEach(async () => {
  rig = await startSessionRig();
});
afterEach(async () => rig.dispose());

describe("background work and turns", () => {
  it("a person's next turn cancels the session's background work; a plugin's injected turn waits first", async () => {
    const { sessionId } = await rig.ok("session.create", {});
    const { sessionId: other } = await rig.ok("session.create", {});
    const elsewhere = backgroundJob(rig, other);

    const waited = backgroundJob(rig, sessionId);
    expect(rig.host.sessions.inject(sessionId, "from a plugin", "p")).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(waited.reasons).toEqual([]);
    expect(rig.host.sessions.backgroundWork.isBusy(sessionId)).toBe(true);
    // Up to 120 s, then what still runs is cancelled (docs/contract.md §9.3; injected-turns.test.ts has the rest).
    rig.clock.advance(120_000);
    await rig.idle(sessionId);
    expect(waited.reasons).toEqual(["injected_turn_waited"]);

    const first = backgroundJob(rig, sessionId);
    await rig.ok("session.send", { sessionId, text: "Hello" });
    await rig.idle(sessionId);
    expect(first.reasons).toEqual(["next_person_turn"]);
    expect(rig.host.sessions.backgroundWork.isBusy(sessionId)).toBe(false);
    expect(elsewhere.reasons).toEqual([]);
    elsewhere.end();
  });

  it("deleting a session cancels its background work", async () => {
    const { sessionId } = await rig.ok("session.create", {});
    const job = backgroundJob(rig, sessionId);
    await rig.ok("session.delete", { sessionId });
    expect(job.reasons).toEqual(["session_deleted"]);
  });
});
