/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results are read as plain JSON here. */
/**
 * Compaction (docs/contract.md §9.1) on the fake provider with a small context window: the summary request
 * goes to the compression slot's route, the next request is under the limit, and nothing is lost
 * from the store or from search.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { estimateTokens, COMPACT_AT } from "../../../electron/host/sessions/turns/compaction.js";
import { startSessionRig, type SessionRig } from "./support/session-rig.js";

const WINDOW = 1_000;
let rig: SessionRig;
beforeEach(async () => {
  rig = await startSessionRig({
    configure: (doc) => {
      doc.providers!.main!.models = { "fake/chat-small": { context_window: WINDOW } };
      doc.auxiliary = { compression: { provider: "backup", model: "fake/summarizer" } };
    },
  });
});
afterEach(async () => rig.dispose());

const note = (n: number) => `Note ${n}: word${n}marker ${"lorem ipsum dolor sit amet ".repeat(22)}`;
const isSummaryRequest = (body: any) =>
  String(body?.messages?.[0]?.content ?? "").startsWith("Summarise the earlier part of a conversation");

describe("compaction", () => {
  it("summarises the oldest turns through the compression slot and keeps everything in the store", async () => {
    for (let i = 0; i < 8; i++)
      rig.backup.enqueue({ kind: "text", content: `Summary ${i}: the user sent numbered notes.` });
    const { sessionId } = await rig.ok("session.create", {});
    for (let n = 1; n <= 6; n++) {
      await rig.ok("session.send", { sessionId, text: note(n) });
      await rig.idle(sessionId);
    }
    await rig.host.sessions.settled();

    // The summary went to the compression slot's pinned route, not the main model.
    const summaries = rig.backup.requests.filter((r) => isSummaryRequest(r.body));
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries.every((r) => (r.body as any).model === "fake/summarizer")).toBe(true);
    expect(rig.main.requests.some((r) => isSummaryRequest(r.body))).toBe(false);
    expect(JSON.stringify(summaries[0]!.body)).toContain("word1marker");

    // Every chat request stays under the limit, and those after a compaction carry the summary.
    const chats = rig.main.requests.filter(
      (r) => Array.isArray((r.body as any)?.messages) && (r.body as any).stream,
    );
    expect(chats).toHaveLength(6);
    for (const r of chats)
      expect(estimateTokens((r.body as any).messages)).toBeLessThanOrEqual(WINDOW * COMPACT_AT);
    const last = (chats.at(-1)!.body as any).messages;
    expect(
      last.some(
        (m: any) =>
          m.role === "system" && String(m.content).startsWith("Summary of the earlier conversation:"),
      ),
    ).toBe(true);
    expect(JSON.stringify(last)).not.toContain("word1marker");

    // Nothing is lost: every note is still in the transcript, with the marker among them.
    const { messages } = await rig.ok("session.messages", { sessionId });
    const userTexts = messages.filter((m: any) => m.role === "user").map((m: any) => m.content);
    expect(userTexts).toEqual([1, 2, 3, 4, 5, 6].map(note));
    const markers = messages.filter((m: any) => m.meta?.notice === "compaction");
    expect(markers.length).toBe(summaries.length);
    expect(markers[0].meta.compaction).toMatchObject({
      throughSeq: expect.any(Number),
      messages: expect.any(Number),
    });
    expect(markers[0].content).toMatch(/^Summary \d: the user sent numbered notes\.$/);

    // … and in search, and the summary is billed as compression.
    const { sessions } = await rig.ok("session.list", { query: "word1marker" });
    expect(sessions.map((s: any) => s.sessionId)).toContain(sessionId);
    const { rows } = await rig.ok("session.usage", { sessionId });
    expect(rows.map((r: any) => r.category)).toContain("compression");
  });

  it("fires the auxiliary hooks around the summary (auxTask compression, no plugin) and bills the slot", async () => {
    const seen: { name: string; payload: any }[] = [];
    for (const name of ["pre_auxiliary_call", "post_auxiliary_call"] as const) {
      rig.host.pluginRegistries.hooks.register(
        "observer",
        name,
        (payload) => void seen.push({ name, payload }),
      );
    }
    for (let i = 0; i < 8; i++) rig.backup.enqueue({ kind: "text", content: `Summary ${i}.` });
    const { sessionId } = await rig.ok("session.create", {});
    for (let n = 1; n <= 4; n++) {
      await rig.ok("session.send", { sessionId, text: note(n) });
      await rig.idle(sessionId);
    }
    await rig.host.sessions.settled();
    const compression = seen.filter((s) => s.payload.auxTask === "compression");
    expect(compression.map((s) => s.name).slice(0, 2)).toEqual(["pre_auxiliary_call", "post_auxiliary_call"]);
    expect(compression[0]!.payload).toMatchObject({
      sessionId,
      pluginId: null,
      gatewaySessionKey: "window-1",
    });
    expect(compression[1]!.payload.usage).toMatchObject({ inputTokens: expect.any(Number) });
    // Titles go through the same path, as their own slot.
    expect(seen.some((s) => s.payload.auxTask === "title_generation")).toBe(true);
  });

  it("a short chat is never compacted", async () => {
    const { sessionId } = await rig.ok("session.create", {});
    await rig.ok("session.send", { sessionId, text: "Hi" });
    await rig.idle(sessionId);
    expect(rig.backup.requests).toHaveLength(0);
  });

  it("a failed summary leaves the history as it was and the turn still runs", async () => {
    rig.backup.fault({ kind: "http_error", status: 500 }, { times: 10 });
    const { sessionId } = await rig.ok("session.create", {});
    for (let n = 1; n <= 4; n++) {
      await rig.ok("session.send", { sessionId, text: note(n) });
      await rig.idle(sessionId);
    }
    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages.filter((m: any) => m.role === "assistant" && m.status === "complete")).toHaveLength(4);
    expect(rig.backup.requests.length).toBeGreaterThan(0);
    expect(messages.some((m: any) => m.meta?.notice === "compaction")).toBe(false);
  });
});
