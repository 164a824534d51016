/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and request bodies are read as plain JSON here. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSessionRig, type SessionRig } from "./support/session-rig.js";

let rig: SessionRig;
beforeEach(async () => {
  rig = await startSessionRig();
});
afterEach(async () => rig.dispose());

const shown = async (sessionId: string) =>
  (await rig.ok("session.messages", { sessionId })).messages
    .filter((m: any) => !m.meta.archived)
    .map((m: any) => `${m.role}:${m.content}`);
const lastConversation = () => rig.main.requests.filter((r) => (r.body as any)?.stream).at(-1)?.body as any;

describe("editing a sent message", () => {
  it("replaces the later turns, keeps the earlier version, and switches between them", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Edits" });
    rig.main.enqueue("One", "Two", "Edited two");
    await rig.ok("session.send", { sessionId, text: "first" });
    await rig.idle(sessionId);
    await rig.ok("session.send", { sessionId, text: "second" });
    await rig.idle(sessionId);
    const { messages } = await rig.ok("session.messages", { sessionId });
    const second = messages.find((m: any) => m.content === "second");

    await rig.ok("session.edit", { sessionId, messageId: second.id, text: "second, better" });
    await rig.idle(sessionId);
    expect(await shown(sessionId)).toEqual([
      "user:first",
      "assistant:One",
      "user:second, better",
      "assistant:Edited two",
    ]);
    // The model read the edited message, not the old one nor its reply.
    const sent = lastConversation().messages.filter((m: any) => m.role !== "system");
    expect(sent.map((m: any) => m.content)).toEqual(["first", "One", "second, better"]);

    const edited = (await rig.ok("session.messages", { sessionId })).messages.find(
      (m: any) => m.content === "second, better",
    );
    expect(edited.meta.branch).toEqual({ group: second.id, version: 2 });
    await rig.ok("session.switchVersion", { sessionId, group: second.id, version: 1 });
    expect(await shown(sessionId)).toEqual(["user:first", "assistant:One", "user:second", "assistant:Two"]);
    await rig.ok("session.switchVersion", { sessionId, group: second.id, version: 2 });
    expect(await shown(sessionId)).toEqual([
      "user:first",
      "assistant:One",
      "user:second, better",
      "assistant:Edited two",
    ]);
    // Regenerate works on the version shown.
    rig.main.enqueue("Again two");
    await rig.ok("session.regenerate", { sessionId });
    await rig.idle(sessionId);
    expect((await shown(sessionId)).at(-1)).toBe("assistant:Again two");
  });

  it("refuses what cannot be edited, saying why", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Refusals" });
    await rig.ok("session.send", { sessionId, text: "hello" });
    await rig.idle(sessionId);
    const reply = (await rig.ok("session.messages", { sessionId })).messages.find(
      (m: any) => m.role === "assistant",
    );
    const notUser = await rig.call("session.edit", { sessionId, messageId: reply.id, text: "x" });
    expect(notUser.error?.data.reason).toBe("invalid_params");
    expect(notUser.error?.message).toMatch(/Only a message you sent/);
    const noVersion = await rig.call("session.switchVersion", { sessionId, group: "nope", version: 2 });
    expect(noVersion.error?.data.reason).toBe("invalid_params");
  });
});
