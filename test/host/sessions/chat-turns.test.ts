/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { contentOf } from "../../../electron/host/sessions/store/tables/message-chunks.js";
import { startSessionRig, type SessionRig } from "./support/session-rig.js";

let rig: SessionRig;
beforeEach(async () => {
  rig = await startSessionRig({
    configure: (doc) => {
      doc.chat = { system_prompt: "You are terse." };
      doc.memory = { note: "The user's name is Ada." };
    },
  });
});
afterEach(async () => rig.dispose());

const typesOf = (rig: SessionRig, sessionId: string, types: string[]) =>
  rig.frames.filter((f) => f.session_id === sessionId && types.includes(f.type)).map((f) => f.type);

describe("a chat turn", () => {
  it("announces the reply's end without its text, which its deltas carried; the store has it all", async () => {
    rig.main.enqueue({ kind: "text", content: "One two three four five" }, "Counting");
    const { sessionId } = await rig.ok("session.create", {});
    const { turnId } = await rig.ok("session.send", { sessionId, text: "Count" });
    await rig.idle(sessionId);
    const replyEvents = rig
      .events("session.message", sessionId)
      .filter((e) => e.message.role === "assistant");
    const last = replyEvents.at(-1);
    expect(last).toMatchObject({ sameContent: true, message: { status: "complete", turnId } });
    expect(last.message).not.toHaveProperty("content");
    // Every event before it carried its text; the deltas carried the rest.
    for (const event of replyEvents.slice(0, -1)) expect(event.message).toHaveProperty("content");
    const shown =
      replyEvents[0].message.content +
      rig
        .events("session.delta", sessionId)
        .map((d) => d.text)
        .join("");
    expect(shown.endsWith("One two three four five")).toBe(true);
    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages.at(-1)).toMatchObject({ role: "assistant", content: "One two three four five" });
  });

  it("a reply that fails mid-way is announced with its text and the error", async () => {
    rig.main.enqueue("Partial answer that is cut off");
    rig.main.fault({ kind: "stream_error", afterChunks: 3, message: "upstream went away" });
    const { sessionId } = await rig.ok("session.create", {});
    await rig.ok("session.send", { sessionId, text: "Go" });
    await rig.idle(sessionId);
    const last = rig
      .events("session.message", sessionId)
      .filter((e) => e.message.role === "assistant")
      .at(-1);
    expect(last).not.toHaveProperty("sameContent");
    expect(last.message.status).toBe("error");
    expect(last.message.content.length).toBeGreaterThan(0);
    expect("Partial answer that is cut off".startsWith(last.message.content)).toBe(true);
  });

  it("streams the reply as deltas between started and finished, then stores it", async () => {
    rig.main.enqueue({ kind: "text", content: "Hello there, Ada", usage: { cost: 0.002 } }, "Greeting Ada");
    const { sessionId } = await rig.ok("session.create", {});
    const sent = await rig.ok("session.send", { sessionId, text: "Hi" });
    expect(sent.disposition).toBe("started");
    await rig.idle(sessionId);

    const order = typesOf(rig, sessionId, ["session.turn.started", "session.delta", "session.turn.finished"]);
    expect(order[0]).toBe("session.turn.started");
    expect(order.at(-1)).toBe("session.turn.finished");
    // Deltas come word by word or gathered per burst; together they are the reply.
    expect(order.filter((t) => t === "session.delta").length).toBeGreaterThanOrEqual(1);
    expect(rig.events("session.turn.started", sessionId)[0]).toEqual({
      turnId: sent.turnId,
      origin: "person",
    });
    expect(
      rig
        .events("session.delta", sessionId)
        .map((d) => d.text)
        .join(""),
    ).toBe("Hello there, Ada");
    expect(rig.events("session.turn.finished", sessionId)).toEqual([{ turnId: sent.turnId, status: "ok" }]);

    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages.map((m: any) => [m.role, m.content, m.status])).toEqual([
      ["user", "Hi", "complete"],
      ["assistant", "Hello there, Ada", "complete"],
    ]);
    expect(typeof messages[0].createdAt).toBe("number");
    expect(messages[1].meta).toMatchObject({ provider: "main", model: "fake/chat-small" });

    // The request carried the frozen system prompt with memory, and asked for usage.
    const body = rig.main.requests[0]!.body as any;
    expect(body.messages[0]).toEqual({
      role: "system",
      content:
        "You are terse.\n\nMemory (notes the user wants you to keep in mind):\nThe user's name is Ada.",
    });
    expect(body.messages.slice(1)).toEqual([{ role: "user", content: "Hi" }]);
    expect(body.stream_options).toEqual({ include_usage: true });
  });

  it("titles the session after the first exchange and bills both categories", async () => {
    rig.main.enqueue("Paris is the capital.", {
      kind: "text",
      content: '<think>hmm, geography</think>"Capital of France."',
    });
    const { sessionId } = await rig.ok("session.create", {});
    await rig.ok("session.send", { sessionId, text: "Capital of France?" });
    const titled = await rig.waitForEvent("session.title");
    expect(titled).toEqual({ title: "Capital of France" });
    const list = await rig.ok("session.list", {});
    expect(list.sessions[0]).toMatchObject({ sessionId, title: "Capital of France" });
    const usage = await rig.ok("session.usage", { sessionId });
    expect(usage.rows.map((r: any) => r.category)).toEqual(["chat", "title_generation"]);
    expect(usage.rows[0].inputTokens).toBeGreaterThan(0);
    expect(usage.rows[0].costUsd).toBeNull();
  });

  it("a failed title leaves New chat and logs why", async () => {
    // The title model only "thinks": nothing usable is left once reasoning is stripped.
    rig.main.enqueue("Sure.", "<think>The user wants a title, maybe Plans</think>");
    const { sessionId } = await rig.ok("session.create", {});
    await rig.ok("session.send", { sessionId, text: "Do it" });
    await rig.idle(sessionId);
    await rig.host.sessions.settled();
    const details = await rig.ok("session.get", { sessionId });
    expect(details).toMatchObject({ title: "New chat", titleState: "failed", status: "idle" });
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(rig.host.log.file, "utf8")).toMatch(/title_generation_failed .*no usable title/);
  });

  it("stop keeps the partial reply as stopped", async () => {
    rig.main.fault({ kind: "stall", afterChunks: 3 });
    rig.main.enqueue("one two three four five six");
    const { sessionId } = await rig.ok("session.create", {});
    const sent = await rig.ok("session.send", { sessionId, text: "Count" });
    // The text before the stall may come as one delta or two: wait for its end.
    await rig.waitForEvent("session.delta", (p) => p.text.endsWith("two "));
    expect((await rig.ok("session.get", { sessionId })).status).toBe("running");
    await rig.ok("session.stop", { sessionId });
    await rig.idle(sessionId);
    expect(rig.events("session.turn.finished", sessionId)).toEqual([
      { turnId: sent.turnId, status: "stopped" },
    ]);
    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages[1]).toMatchObject({ role: "assistant", content: "one two ", status: "stopped" });
  });

  it("has every delta on disk as it is emitted: the first in the same step, every later one before", async () => {
    rig.main.fault({ kind: "stall", afterChunks: 6 });
    rig.main.enqueue("alpha beta gamma delta epsilon zeta eta");
    const { sessionId } = await rig.ok("session.create", { title: "Durable deltas" });
    const reader = new Database(join(rig.home, "sessions.sqlite"), { readonly: true });
    const storedReply = () =>
      reader
        .prepare(`SELECT ${contentOf("m")} FROM messages m WHERE role = 'assistant'`)
        .pluck()
        .get() as string;
    const checks: Promise<{ shown: string; stored: string }>[] = [];
    let shown = "";
    const unsubscribe = rig.host.events.subscribe((frame) => {
      if (frame.params.type !== "session.delta" || frame.params.session_id !== sessionId) return;
      shown += (frame.params.payload as { text: string }).text;
      const at = shown;
      // The first text is shown, then written before the host runs anything else (delta-writer.ts):
      // read at the next microtask. Every later batch is read as it is emitted.
      checks.push(
        checks.length === 0
          ? new Promise((resolve) => queueMicrotask(() => resolve({ shown: at, stored: storedReply() })))
          : Promise.resolve({ shown: at, stored: storedReply() }),
      );
    });
    await rig.ok("session.send", { sessionId, text: "Go" });
    await rig.waitForEvent("session.delta", (p) => p.text.includes("delta"));
    unsubscribe();
    const results = await Promise.all(checks);
    reader.close();
    expect(results.length).toBeGreaterThan(1);
    for (const check of results) expect(check.stored).toBe(check.shown);
    expect(shown).toContain("alpha beta gamma");
    await rig.ok("session.stop", { sessionId });
    await rig.idle(sessionId);
  });

  it("bills plugin usage through the host, and refuses unknown categories", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Billing" });
    const usage = {
      inputTokens: 5,
      outputTokens: 1,
      totalTokens: 6,
      cacheReadTokens: 2,
      cacheWriteTokens: 0,
      costUsd: 0.5,
    };
    rig.host.billUsage(sessionId, "plugin_llm:chart-writer", usage);
    expect(() => rig.host.billUsage(sessionId, "snacks", usage)).toThrow(/not a usage category/);
    expect((await rig.ok("session.usage", { sessionId })).rows).toEqual([
      {
        category: "plugin_llm:chart-writer",
        inputTokens: 5,
        outputTokens: 1,
        cacheReadTokens: 2,
        cacheWriteTokens: 0,
        costUsd: 0.5,
      },
    ]);
  });

  it("regenerate answers again, keeps the earlier reply as version 1, and sends the same conversation", async () => {
    rig.main.enqueue("First answer", "A title", "Second answer");
    const { sessionId } = await rig.ok("session.create", {});
    await rig.ok("session.send", { sessionId, text: "Question" });
    await rig.idle(sessionId);
    await rig.host.sessions.settled();
    const before = (await rig.ok("session.messages", { sessionId })).messages;
    const { turnId } = await rig.ok("session.regenerate", { sessionId });
    await rig.idle(sessionId);
    const all = (await rig.ok("session.messages", { sessionId })).messages;
    const after = all.filter((m: any) => !m.meta.archived);
    expect(after.map((m: any) => [m.role, m.content])).toEqual([
      ["user", "Question"],
      ["assistant", "Second answer"],
    ]);
    expect(after[0].meta.branch).toEqual({ group: before[0].id, version: 2 });
    expect(after[1].turnId).toBe(turnId);
    // Nothing is removed: the first answer is the exchange's version 1.
    expect(rig.events("session.message.removed", sessionId)).toEqual([]);
    const kept = all.filter((m: any) => m.meta.archived);
    expect(kept.map((m: any) => [m.role, m.content, m.meta.archived])).toEqual([
      ["user", "Question", { group: before[0].id, version: 1 }],
      ["assistant", "First answer", { group: before[0].id, version: 1 }],
    ]);
    const last = rig.main.lastRequest()!.body as any;
    expect(last.messages.slice(1)).toEqual([{ role: "user", content: "Question" }]);
    // ‹ 1/2 ›: version 1 comes back, with its answer.
    await rig.ok("session.switchVersion", { sessionId, group: before[0].id, version: 1 });
    const back = (await rig.ok("session.messages", { sessionId })).messages.filter(
      (m: any) => !m.meta.archived,
    );
    expect(back.map((m: any) => m.content)).toEqual(["Question", "First answer"]);
  });

  it("refuses to regenerate while a reply streams, and answers not_found for unknown sessions", async () => {
    rig.main.fault({ kind: "stall", afterChunks: 2 });
    const { sessionId } = await rig.ok("session.create", {});
    await rig.ok("session.send", { sessionId, text: "Go" });
    await rig.waitForEvent("session.delta");
    expect((await rig.call("session.regenerate", { sessionId })).error?.data.reason).toBe("conflict");
    await rig.ok("session.stop", { sessionId });
    await rig.idle(sessionId);
    expect((await rig.call("session.messages", { sessionId: "nope" })).error?.data.reason).toBe("not_found");
    expect((await rig.call("session.send", { sessionId: "nope", text: "x" })).error?.data.reason).toBe(
      "not_found",
    );
  });

  it("renames, searches titles and message text, and deletes", async () => {
    rig.main.enqueue("We talked about zebras", "Zebra chat");
    const a = (await rig.ok("session.create", { title: "Groceries" })).sessionId;
    const b = (await rig.ok("session.create", {})).sessionId;
    await rig.ok("session.send", { sessionId: b, text: "Tell me about stripes" });
    await rig.idle(b);
    await rig.ok("session.rename", { sessionId: a, title: "Weekly groceries" });
    expect(
      (await rig.ok("session.list", { query: "groceries" })).sessions.map((s: any) => s.sessionId),
    ).toEqual([a]);
    const hit = (await rig.ok("session.list", { query: "zebras" })).sessions;
    expect(hit).toHaveLength(1);
    expect(hit[0].sessionId).toBe(b);
    expect(hit[0].snippet.text).toContain("zebras");
    await rig.ok("session.delete", { sessionId: a });
    expect((await rig.ok("session.list", {})).sessions.map((s: any) => s.sessionId)).toEqual([b]);
    expect(rig.events("sessions.changed").length).toBeGreaterThan(3);
  });

  it("a new session sees the current settings; an existing one keeps its own", async () => {
    const first = (await rig.ok("session.create", {})).sessionId;
    rig.host.settings.update((doc) => {
      doc.model = { provider: "main", model: "fake/chat-large" };
      doc.chat = { system_prompt: "Be verbose." };
      doc.memory = { note: "" };
    });
    const second = (await rig.ok("session.create", {})).sessionId;
    await rig.ok("session.send", { sessionId: first, text: "a" });
    await rig.idle(first);
    await rig.ok("session.send", { sessionId: second, text: "b" });
    await rig.idle(second);
    const bodies = rig.main.requests.filter((r) => (r.body as any).stream).map((r) => r.body as any);
    expect(bodies[0].model).toBe("fake/chat-small");
    expect(bodies[0].messages[0].content).toContain("You are terse.");
    expect(bodies[1].model).toBe("fake/chat-large");
    expect(bodies[1].messages[0]).toEqual({ role: "system", content: "Be verbose." });
    expect((await rig.ok("session.get", { sessionId: first })).model).toEqual({
      provider: "main",
      model: "fake/chat-small",
    });
  });
});

describe("title cleaning", () => {
  it("strips reasoning, quotes, labels and trailing punctuation, and bounds the length", async () => {
    const { cleanTitle } = await import("../../../electron/host/sessions/turns/title-generator.js");
    expect(cleanTitle('<think>long\nthoughts</think>\n"Trip to Rome!"')).toBe("Trip to Rome");
    expect(cleanTitle("Title: **Don't panic**.")).toBe("Don't panic");
    expect(cleanTitle("<reasoning>unfinished")).toBe("");
    // A server that keeps the opening tag in the prompt sends only the closing one.
    expect(cleanTitle("The user asks about bread, so maybe\n</think>\n'Sourdough basics'")).toBe(
      "Sourdough basics",
    );
    expect(cleanTitle("«Trip» ‘planning’ for 'the kids' it’s")).toBe("Trip planning for the kids it’s");
    const long = cleanTitle("word ".repeat(40));
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long.endsWith("word")).toBe(true);
  });
});
