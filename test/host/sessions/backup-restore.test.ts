/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results are read as plain JSON here. */
import { afterEach, describe, expect, it } from "vitest";
import { startSessionRig, type SessionRig } from "./support/session-rig.js";

let rig: SessionRig | null = null;
afterEach(async () => {
  await rig?.dispose();
  rig = null;
});

describe("backups.list / backups.restore", () => {
  it("lists the backups and restores one over RPC: every message is back, the list is told", async () => {
    rig = await startSessionRig();
    rig.main.enqueue("First answer", "Second answer");
    const { sessionId } = await rig.ok("session.create", { title: "Kept" });
    await rig.ok("session.send", { sessionId, text: "First question" });
    await rig.idle(sessionId);
    await rig.ok("session.send", { sessionId, text: "Second question" });
    await rig.idle(sessionId);
    const before = (await rig.ok("session.messages", { sessionId })).messages.map((m: any) => m.content);
    expect(before).toEqual(["First question", "First answer", "Second question", "Second answer"]);

    const made = await rig.host.backups.backUp();
    const { backups } = await rig.ok("backups.list", {});
    expect(backups).toEqual([made]);
    expect(made).toMatchObject({ reason: "daily", bytes: expect.any(Number) });

    await rig.ok("session.delete", { sessionId });
    expect((await rig.ok("session.list", {})).sessions).toEqual([]);
    const restored = await rig.ok("backups.restore", { name: made.name });
    expect(restored.restored).toBe(made.name);
    expect(restored.keptAside).toMatch(/sessions\.sqlite\.before-restore-/);
    await rig.waitForEvent("sessions.changed");
    const after = (await rig.ok("session.messages", { sessionId })).messages.map((m: any) => m.content);
    expect(after).toEqual(before);
  });

  it("refuses a name that is not a listed backup with not_found", async () => {
    rig = await startSessionRig();
    const reply = await rig.call("backups.restore", { name: "../sessions.sqlite" });
    expect(reply.error?.data.reason).toBe("not_found");
    expect(reply.error?.message).toMatch(/No backup named "..\/sessions.sqlite" exists/);
  });

  it("refuses to restore while a reply is being written (conflict), and the reply is kept", async () => {
    rig = await startSessionRig();
    const { sessionId } = await rig.ok("session.create", { title: "Busy" });
    const made = await rig.host.backups.backUp();
    rig.main.fault({ kind: "stall", afterChunks: 3 });
    rig.main.enqueue("one two three four");
    await rig.ok("session.send", { sessionId, text: "Go" });
    await rig.waitForEvent("session.delta");
    const reply = await rig.call("backups.restore", { name: made.name });
    expect(reply.error?.data.reason).toBe("conflict");
    expect(reply.error?.message).toMatch(/stop it or wait for it to end, then restore/);
    await rig.ok("session.stop", { sessionId });
    await rig.idle(sessionId);
    const contents = (await rig.ok("session.messages", { sessionId })).messages.map((m: any) => m.content);
    expect(contents[0]).toBe("Go");
  });
});
