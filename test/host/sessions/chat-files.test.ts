/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results are read as plain JSON here. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSessionRig, type SessionRig } from "./support/session-rig.js";

let rig: SessionRig;
beforeEach(async () => {
  rig = await startSessionRig();
});
afterEach(async () => rig.dispose());

describe("chat export and import", () => {
  it("exports Markdown and JSON with usage, and imports the JSON as a new chat", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Trip: Lisbon!" });
    rig.main.enqueue("Pack **light**.");
    await rig.ok("session.send", { sessionId, text: "What to pack?" });
    await rig.idle(sessionId);

    const md = await rig.ok("session.export", { sessionId, format: "markdown" });
    expect(md.filename).toBe("Trip Lisbon.md");
    expect(md.content).toBe(
      "# Trip: Lisbon!\n\n## You\n\nWhat to pack?\n\n## Assistant\n\nPack **light**.\n",
    );

    const json = await rig.ok("session.export", { sessionId, format: "json" });
    const doc = JSON.parse(json.content);
    expect(doc).toMatchObject({ format: "hermes-desktop-chat", version: 1, title: "Trip: Lisbon!" });
    expect(doc.messages.map((m: any) => [m.role, m.content])).toEqual([
      ["user", "What to pack?"],
      ["assistant", "Pack **light**."],
    ]);
    expect(doc.usage.map((r: any) => r.category)).toEqual(["chat"]);
    expect(doc.usage[0].inputTokens).toBeGreaterThan(0);

    const imported = await rig.ok("session.import", { content: json.content });
    expect(imported.sessionId).not.toBe(sessionId);
    const again = await rig.ok("session.messages", { sessionId: imported.sessionId });
    expect(again.messages.map((m: any) => [m.role, m.content])).toEqual(
      doc.messages.map((m: any) => [m.role, m.content]),
    );
    expect((await rig.ok("session.get", { sessionId: imported.sessionId })).title).toBe("Trip: Lisbon!");
    expect((await rig.ok("session.usage", { sessionId: imported.sessionId })).rows).toEqual(
      (await rig.ok("session.usage", { sessionId })).rows,
    );
    // An imported chat goes on like any other.
    await rig.ok("session.send", { sessionId: imported.sessionId, text: "And shoes?" });
    await rig.idle(imported.sessionId);
    const sent = rig.main.requests.filter((r) => (r.body as any)?.stream).at(-1)?.body as any;
    expect(sent.messages.filter((m: any) => m.role !== "system").map((m: any) => m.content)).toEqual([
      "What to pack?",
      "Pack **light**.",
      "And shoes?",
    ]);
  });

  it("refuses a file that is not an export, saying what is wrong", async () => {
    const notJson = await rig.call("session.import", { content: "hello" });
    expect(notJson.error?.data.reason).toBe("invalid_params");
    expect(notJson.error?.message).toMatch(/not JSON/);
    const other = await rig.call("session.import", { content: JSON.stringify({ messages: [] }) });
    expect(other.error?.message).toMatch(/not a Hermes Desktop chat export/);
    const badMessage = await rig.call("session.import", {
      content: JSON.stringify({ format: "hermes-desktop-chat", version: 1, messages: [{ role: "tool" }] }),
    });
    expect(badMessage.error?.message).toMatch(/Message 1 of the export needs a role/);
    expect((await rig.ok("session.list", {})).sessions).toEqual([]);
  });
});
