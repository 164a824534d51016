/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and request bodies are read as plain JSON here. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSessionRig, type SessionRig } from "./support/session-rig.js";

let rig: SessionRig;
beforeEach(async () => {
  rig = await startSessionRig({
    configure: (doc) => {
      doc.memory = { note: "The user writes TypeScript." };
    },
  });
});
afterEach(async () => rig.dispose());

const streamedTo = (provider: SessionRig["main"]) =>
  provider.requests.filter((r) => (r.body as any)?.stream).map((r) => r.body as any);

describe("a chat's own model and system prompt", () => {
  it("switches the model from the next reply on and records the switch in the transcript", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Switch" });
    await rig.ok("session.send", { sessionId, text: "First" });
    await rig.idle(sessionId);
    const switched = await rig.ok("session.setModel", { sessionId, provider: "backup", model: "fake/other" });
    expect(switched.model).toEqual({ provider: "backup", model: "fake/other" });
    expect((await rig.ok("session.get", { sessionId })).model).toEqual({
      provider: "backup",
      model: "fake/other",
    });

    await rig.ok("session.send", { sessionId, text: "Second" });
    await rig.idle(sessionId);
    expect(streamedTo(rig.main)).toHaveLength(1);
    expect(streamedTo(rig.backup).map((b) => b.model)).toEqual(["fake/other"]);
    const { messages } = await rig.ok("session.messages", { sessionId });
    const notice = messages.find((m: any) => m.meta.notice === "model_switch");
    expect(notice.content).toBe("Model for this chat: fake/other (Backup), from the next reply on.");
    // The switch is part of the transcript, not of what the model reads.
    expect(JSON.stringify(streamedTo(rig.backup)[0].messages)).not.toContain("Model for this chat");
    // The settings' main model is untouched.
    expect(rig.host.settings.get().model).toEqual({ provider: "main", model: "fake/chat-small" });
  });

  it("refuses an unknown provider and a switch while a reply runs, with what to do", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Refuse" });
    const unknown = await rig.call("session.setModel", { sessionId, provider: "nope", model: "x" });
    expect(unknown.error?.data.reason).toBe("invalid_params");
    expect(unknown.error?.message).toMatch(/No provider "nope"; add it in Settings → Providers/);
    rig.main.fault({ kind: "stall", afterChunks: 2 });
    const sent = await rig.ok("session.send", { sessionId, text: "Hold" });
    await rig.waitForEvent("session.delta", (p) => p.turnId === sent.turnId);
    const busy = await rig.call("session.setModel", { sessionId, provider: "backup", model: "x" });
    expect(busy.error?.data.reason).toBe("conflict");
    await rig.ok("session.stop", { sessionId });
    await rig.idle(sessionId);
  });

  it("puts the chat's system prompt before the Memory note, which still applies", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Prompted" });
    expect((await rig.ok("session.get", { sessionId })).systemPrompt).toBe("");
    await rig.ok("session.setSystemPrompt", { sessionId, prompt: "  Answer like a pirate.  " });
    expect((await rig.ok("session.get", { sessionId })).systemPrompt).toBe("Answer like a pirate.");
    await rig.ok("session.send", { sessionId, text: "Hi" });
    await rig.idle(sessionId);
    const system = streamedTo(rig.main)[0].messages[0];
    expect(system.role).toBe("system");
    expect(system.content).toMatch(/^Answer like a pirate\.\n\n[\s\S]*The user writes TypeScript\./);

    // A new chat starts with none; the Memory note still applies there.
    const other = (await rig.ok("session.create", { title: "Plain" })).sessionId;
    await rig.ok("session.send", { sessionId: other, text: "Hi" });
    await rig.idle(other);
    const plain = streamedTo(rig.main)[1].messages[0];
    expect(plain.content).not.toContain("pirate");
    expect(plain.content).toContain("The user writes TypeScript.");

    await rig.ok("session.setSystemPrompt", { sessionId, prompt: "" });
    expect((await rig.ok("session.get", { sessionId })).systemPrompt).toBe("");
  });
});
