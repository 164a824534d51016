/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { tempHome } from "../support/temp-home.js";
import { durableUserMessages } from "./support/durable-messages.js";
import { MAIN_KEY, startSessionRig, type SessionRig } from "./support/session-rig.js";

let rig: SessionRig | null = null;
afterEach(async () => {
  await rig?.dispose();
  rig = null;
});

async function lastReply(r: SessionRig, sessionId: string) {
  return (await r.ok("session.messages", { sessionId })).messages
    .filter((m: any) => m.role === "assistant")
    .at(-1);
}

describe("fallback providers", () => {
  it("moves on at 429/5xx in order and notes in the transcript who answered", async () => {
    rig = await startSessionRig({
      configure: (doc) => {
        doc.fallback_providers = [
          { provider: "backup", model: "fake/chat-large" },
          { provider: "main", model: "fake/chat-large" },
        ];
      },
    });
    const r = rig;
    r.main.fault({ kind: "http_error", status: 503, message: "overloaded" });
    r.backup.fault({ kind: "http_error", status: 429, message: "slow down" });
    r.main.enqueue("Answer from the second fallback");
    const { sessionId } = await r.ok("session.create", { title: "Fallback" });
    await r.ok("session.send", { sessionId, text: "Hi" });
    await r.idle(sessionId);
    const tried = [
      ...r.main.requests.map((q) => ({ at: q.time, who: `main/${(q.body as any).model}` })),
      ...r.backup.requests.map((q) => ({ at: q.time, who: `backup/${(q.body as any).model}` })),
    ];
    expect(tried.map((t) => t.who).sort()).toEqual([
      "backup/fake/chat-large",
      "main/fake/chat-large",
      "main/fake/chat-small",
    ]);
    const { messages } = await r.ok("session.messages", { sessionId });
    expect(messages.map((m: any) => m.role)).toEqual(["user", "notice", "assistant"]);
    expect(messages[1].content).toMatch(
      /^Answered by Main \(fake\/chat-large\), a fallback provider\. Main failed: .*Backup failed: /,
    );
    expect(messages[2].meta).toMatchObject({
      provider: "main",
      model: "fake/chat-large",
      fallbackFrom: ["main", "backup"],
    });
    // The row reserved for the first route's reply went unseen: clients only ever heard of this one.
    const announced = r
      .events("session.message", sessionId)
      .filter((e: any) => e.message.role === "assistant")
      .map((e: any) => e.message.id);
    expect(new Set(announced)).toEqual(new Set([messages[2].id]));
    expect(r.events("session.turn.finished", sessionId)[0].status).toBe("ok");
  });

  it("the provider client makes no retries of its own", async () => {
    rig = await startSessionRig();
    rig.main.fault({ kind: "http_error", status: 503, message: "overloaded" });
    const { sessionId } = await rig.ok("session.create", { title: "No retries" });
    await rig.ok("session.send", { sessionId, text: "Hi" });
    await rig.idle(sessionId);
    expect(rig.main.requests).toHaveLength(1);
    expect((await lastReply(rig, sessionId)).meta.error).toMatch(/Main answered 503/);
  });

  it("does not fall back on other errors", async () => {
    rig = await startSessionRig({
      configure: (doc) => void (doc.fallback_providers = [{ provider: "backup", model: "x" }]),
    });
    rig.main.fault({ kind: "http_error", status: 401, message: "bad key" });
    const { sessionId } = await rig.ok("session.create", { title: "No fallback" });
    await rig.ok("session.send", { sessionId, text: "Hi" });
    await rig.idle(sessionId);
    expect(rig.backup.requests).toHaveLength(0);
    expect((await lastReply(rig, sessionId)).status).toBe("error");
  });
});

describe("provider faults", () => {
  it("a connection dropped mid-stream keeps the partial reply, marked, with the error in plain words", async () => {
    rig = await startSessionRig();
    rig.main.fault({ kind: "drop", afterChunks: 3 });
    rig.main.enqueue("one two three four five");
    const { sessionId } = await rig.ok("session.create", { title: "Drop" });
    const { turnId } = await rig.ok("session.send", { sessionId, text: "Count" });
    await rig.idle(sessionId);
    const reply = await lastReply(rig, sessionId);
    expect(reply).toMatchObject({ content: "one two ", status: "error" });
    expect(reply.meta.error).toMatch(/connection to Main dropped/i);
    const finished = rig.events("session.turn.finished", sessionId)[0];
    expect(finished).toMatchObject({ turnId, status: "error" });
    expect(finished.error).toBe(reply.meta.error);
  });

  it("a stream cut short (no finish reason, no [DONE]) keeps the partial reply, marked as an error, never as complete", async () => {
    rig = await startSessionRig();
    rig.main.fault({ kind: "truncate", afterChunks: 3 });
    rig.main.enqueue("one two three four five");
    const { sessionId } = await rig.ok("session.create", { title: "Cut short" });
    const { turnId } = await rig.ok("session.send", { sessionId, text: "Count" });
    await rig.idle(sessionId);
    const reply = await lastReply(rig, sessionId);
    expect(reply).toMatchObject({ content: "one two ", status: "error" });
    expect(reply.meta.error).toMatch(/Main's reply ended before it was finished.*Send your message again/);
    expect(rig.events("session.turn.finished", sessionId)[0]).toMatchObject({ turnId, status: "error" });
  });

  it("a provider that is down gives a plain error and an intact session", async () => {
    rig = await startSessionRig({
      configure: (doc) =>
        void (doc.providers = { main: { name: "Main", base_url: "http://127.0.0.1:9/v1" } }),
    });
    const { sessionId } = await rig.ok("session.create", { title: "Down" });
    await rig.ok("session.send", { sessionId, text: "Anyone there?" });
    await rig.idle(sessionId);
    const reply = await lastReply(rig, sessionId);
    expect(reply.status).toBe("error");
    expect(reply.meta.error).toMatch(/Main/);
    expect(reply.meta.error).not.toMatch(/^Error:|undefined|\[object/);
  });

  it("a conversation longer than the context window says what to do", async () => {
    rig = await startSessionRig();
    rig.main.fault({
      kind: "http_error",
      status: 400,
      code: "context_length_exceeded",
      message:
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
    });
    const { sessionId } = await rig.ok("session.create", { title: "Long" });
    await rig.ok("session.send", { sessionId, text: "x ".repeat(50) });
    await rig.idle(sessionId);
    const finished = rig.events("session.turn.finished", sessionId)[0];
    expect(finished.status).toBe("error");
    expect(finished.error).toMatch(/longer than fake\/chat-small can read.*Start a new chat/);
  });

  it("malformed SSE ends the turn with an error and leaves the session usable", async () => {
    rig = await startSessionRig();
    rig.main.fault({ kind: "malformed_sse", afterChunks: 2, garbage: "invalid_json" });
    const { sessionId } = await rig.ok("session.create", { title: "Garbage" });
    await rig.ok("session.send", { sessionId, text: "First" });
    await rig.idle(sessionId);
    expect(rig.events("session.turn.finished", sessionId)[0].status).toBe("error");
    rig.main.enqueue("Fine now");
    await rig.ok("session.send", { sessionId, text: "Again" });
    await rig.idle(sessionId);
    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages.map((m: any) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "error"],
      ["user", "complete"],
      ["assistant", "complete"],
    ]);
    expect(messages[3].content).toBe("Fine now");
  });
});

describe("store faults", () => {
  it("a locked store gives a clear error and loses nothing already saved", async () => {
    rig = await startSessionRig();
    rig.main.enqueue("Saved reply");
    const { sessionId } = await rig.ok("session.create", { title: "Locked" });
    await rig.ok("session.send", { sessionId, text: "Keep me" });
    await rig.idle(sessionId);
    rig.main.enqueue("Never shown");
    const other = new Database(join(rig.home, "sessions.sqlite"));
    other.exec("BEGIN EXCLUSIVE");
    let finished: any;
    try {
      // The request goes out first and the message is logged while it is in flight; its insert,
      // with the reply's first text, finds the store locked before anything is shown.
      const { turnId } = await rig.ok("session.send", { sessionId, text: "Blocked" });
      finished = await rig.waitForEvent("session.turn.finished", (p) => p.turnId === turnId);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect(finished.status).toBe("error");
    expect(finished.error).toMatch(
      /^Your message could not be saved, so it was not answered: .*locked by another program.*nothing already saved was lost/,
    );
    // Clients keep the message they showed, marked with the reason; no reply text was shown.
    const events = rig.frames.filter((f) => f.session_id === sessionId);
    const blocked = events
      .filter((f) => f.type === "session.message" && (f.payload as any).message.content === "Blocked")
      .map((f) => (f.payload as any).message);
    expect(blocked.at(-1)).toMatchObject({ status: "error", meta: { error: finished.error } });
    expect(events.some((f) => f.type === "session.delta" && (f.payload as any).text.includes("Never"))).toBe(
      false,
    );
    await rig.idle(sessionId);
    const contents = (await rig.ok("session.messages", { sessionId })).messages.map((m: any) => m.content);
    expect(contents).toEqual(["Keep me", "Saved reply"]);
    // Reported not saved, it is not left for the next open to insert either.
    expect(durableUserMessages(rig.home)).toEqual({ stored: ["Keep me"], logged: [] });
  });

  it("a corrupt store file is moved aside with a notice saying where, and chats start on a fresh store", async () => {
    const home = tempHome("hermes-corrupt-");
    try {
      const file = join(home.dir, "sessions.sqlite");
      const garbage = Buffer.from("this is not a sqlite database ".repeat(200));
      writeFileSync(file, garbage);
      rig = await startSessionRig({ home: home.dir });
      expect((await rig.call("session.list", {})).result).toEqual({ sessions: [] });
      const info = (await rig.call("host.info", {})).result;
      expect(info).toMatchObject({ mode: "web" });
      const notice = info.notices.find((n: any) => n.kind === "session_store");
      expect(notice.message).toMatch(
        /^The session store was damaged \(it is not a SQLite database.*\)\. It was moved aside to .*sessions\.sqlite\.corrupt-.* and not deleted; nothing in it could be read/,
      );
      const movedTo = /moved aside to (\S+) and not deleted/.exec(notice.message)![1]!;
      expect(readFileSync(movedTo).equals(garbage)).toBe(true);
      // The fresh store takes new chats, and the rest of the host works.
      expect((await rig.call("session.create", { title: "After" })).error).toBeUndefined();
      expect((await rig.call("settings.get", {})).error).toBeUndefined();
    } finally {
      await rig?.dispose();
      rig = null;
      home.cleanup();
    }
  });
});

describe("restarts", () => {
  it("sessions, messages and usage survive a host restart", async () => {
    rig = await startSessionRig();
    rig.main.enqueue(
      {
        kind: "text",
        content: "Persistent reply",
        usage: { promptTokens: 7, completionTokens: 2, cost: 0.01 },
      },
      "Persistence",
    );
    const { sessionId } = await rig.ok("session.create", {});
    await rig.ok("session.send", { sessionId, text: "Remember this" });
    await rig.idle(sessionId);
    await rig.host.sessions.settled();
    await rig.restart();
    expect((await rig.ok("session.list", {})).sessions).toMatchObject([{ sessionId, title: "Persistence" }]);
    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages.map((m: any) => m.content)).toEqual(["Remember this", "Persistent reply"]);
    const { rows } = await rig.ok("session.usage", { sessionId });
    expect(rows[0]).toMatchObject({ category: "chat", inputTokens: 7, outputTokens: 2, costUsd: 0.01 });
    expect((await rig.ok("session.list", { query: "remember" })).sessions[0].sessionId).toBe(sessionId);
  });

  it("a host killed mid-reply reopens the session with the partial reply marked interrupted", async () => {
    rig = await startSessionRig();
    rig.main.fault({ kind: "stall", afterChunks: 3 });
    rig.main.enqueue("It was a dark and stormy night");
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(import.meta.dirname, "support", "crash-child.ts"),
        rig.home,
        rig.main.baseURL,
        MAIN_KEY,
      ],
      { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = once(child, "exit");
    let sessionId = "";
    try {
      const lines = createInterface({ input: child.stdout! });
      for await (const line of lines) {
        const match = /^PARTIAL_SAVED (\S+)$/.exec(line);
        if (match) {
          sessionId = match[1]!;
          break;
        }
      }
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    expect(sessionId).not.toBe("");
    await rig.restart();
    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages.map((m: any) => [m.role, m.content, m.status])).toEqual([
      ["user", "Tell me a story", "complete"],
      ["assistant", "It was ", "interrupted"],
    ]);
    rig.main.enqueue("Continuing.");
    await rig.ok("session.send", { sessionId, text: "Go on" });
    await rig.idle(sessionId);
    expect(convoOf(rig.main.lastRequest()!.body)).toEqual([
      { role: "user", content: "Tell me a story" },
      { role: "assistant", content: "It was " },
      { role: "user", content: "Go on" },
    ]);
  });
});

describe("durability and restarts of a running chat", () => {
  it("the person's message is on disk before the first token is shown", async () => {
    rig = await startSessionRig();
    rig.main.enqueue("Streaming now");
    const { sessionId } = await rig.ok("session.create", { title: "Durable" });
    const home = rig.home;
    const seenAtFirstDelta: ReturnType<typeof durableUserMessages>[] = [];
    const unsubscribe = rig.host.events.subscribe((frame) => {
      if (frame.params.type === "session.delta" && seenAtFirstDelta.length === 0) {
        seenAtFirstDelta.push(durableUserMessages(home));
      }
    });
    try {
      await rig.ok("session.send", { sessionId, text: "Keep this safe" });
      await rig.idle(sessionId);
    } finally {
      unsubscribe();
    }
    // Durable in the store's pending log; it is inserted with the reply's first text, as it is shown.
    expect(seenAtFirstDelta).toEqual([{ stored: [], logged: ["Keep this safe"] }]);
    expect(durableUserMessages(home)).toEqual({ stored: ["Keep this safe"], logged: [] });
    // …and once the reply started it is complete and searchable.
    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages[0]).toMatchObject({ content: "Keep this safe", status: "complete" });
    expect((await rig.ok("session.list", { query: "safe" })).sessions.map((s: any) => s.sessionId)).toEqual([
      sessionId,
    ]);
  });

  it("a host closed mid-reply keeps the partial reply as interrupted, not stopped", async () => {
    rig = await startSessionRig();
    rig.main.fault({ kind: "stall", afterChunks: 3 });
    rig.main.enqueue("one two three four");
    const { sessionId } = await rig.ok("session.create", { title: "Quit" });
    await rig.ok("session.send", { sessionId, text: "Count" });
    // The text before the stall may come as one delta or two: wait for its end.
    await rig.waitForEvent("session.delta", (p) => p.text.endsWith("two "));
    await rig.restart();
    expect(await lastReply(rig, sessionId)).toMatchObject({ content: "one two ", status: "interrupted" });
  });

  it("messages still waiting when the host quit are marked not sent, kept from the model, and can be sent again", async () => {
    rig = await startSessionRig();
    rig.main.fault({ kind: "stall", afterChunks: 2 });
    const { sessionId } = await rig.ok("session.create", { title: "Unsent" });
    await rig.ok("session.send", { sessionId, text: "First" });
    await rig.waitForEvent("session.delta");
    await rig.ok("session.send", { sessionId, text: "Queued one", mode: "queue" });
    await rig.ok("session.send", { sessionId, text: "A steer", mode: "steer" });
    await rig.restart();

    const { messages } = await rig.ok("session.messages", { sessionId });
    const unsent = messages.filter((m: any) => m.meta.notSent);
    expect(unsent.map((m: any) => [m.content, m.status, m.meta.pending])).toEqual([
      ["Queued one", "interrupted", undefined],
      ["A steer", "interrupted", undefined],
    ]);
    const info = (await rig.ok("host.info", {})) as any;
    expect(info.notices).toContainEqual({
      kind: "session_store",
      message: expect.stringMatching(/^2 messages waiting to be sent .* marked “Not sent”/),
    });
    expect((await rig.ok("session.get", { sessionId })).queued).toBe(0);

    // Regenerate answers the last message; a not-sent one is sent for real (regenerate doubles as retry).
    rig.main.enqueue("Retried answer", "Fresh answer");
    await rig.ok("session.regenerate", { sessionId });
    await rig.idle(sessionId);
    expect(convoOf(rig.main.lastRequest()!.body).map((m: any) => m.content)).toEqual([
      "First",
      "Echo: ",
      "A steer",
    ]);
    await rig.ok("session.send", { sessionId, text: "Something new" });
    await rig.idle(sessionId);
    expect(convoOf(rig.main.lastRequest()!.body).map((m: any) => m.content)).toEqual([
      "First",
      "Echo: ",
      "A steer",
      "Retried answer",
      "Something new",
    ]);
    const after = (await rig.ok("session.messages", { sessionId })).messages;
    expect(after.find((m: any) => m.content === "A steer")).toMatchObject({ status: "complete" });
    expect(after.find((m: any) => m.content === "A steer").meta.notSent).toBeUndefined();
  });
});

function convoOf(body: any) {
  return body.messages.filter((m: any) => m.role !== "system");
}

describe("errors that say what to do", () => {
  it("a 404 model_not_found names the model and marks it for the model list, not base-URL advice", async () => {
    rig = await startSessionRig();
    rig.main.fault({
      kind: "http_error",
      status: 404,
      code: "model_not_found",
      message: "The model `fake/chat-small` does not exist or you do not have access to it.",
    });
    const { sessionId } = await rig.ok("session.create", {});
    await rig.ok("session.send", { sessionId, text: "Hi" });
    await rig.idle(sessionId);
    const reply = await lastReply(rig, sessionId);
    expect(reply.status).toBe("error");
    expect(reply.meta.error).toMatch(/^Main has no model "fake\/chat-small" \(it answered 404\)\. Pick one/);
    expect(reply.meta.error).not.toMatch(/base URL/);
    expect(reply.meta.missingModel).toEqual({ provider: "main", model: "fake/chat-small" });
  });

  it("a 404 that is not about the model still points at the base URL", async () => {
    rig = await startSessionRig();
    rig.main.fault({ kind: "http_error", status: 404 });
    const { sessionId } = await rig.ok("session.create", {});
    await rig.ok("session.send", { sessionId, text: "Hi" });
    await rig.idle(sessionId);
    const reply = await lastReply(rig, sessionId);
    expect(reply.meta.error).toMatch(/check the base URL/);
    expect(reply.meta.missingModel).toBeUndefined();
  });

  it("a provider with no key stored: the error leads with that, and marks the provider for Add a key", async () => {
    rig = await startSessionRig({
      configure: (doc) => void (doc.providers!.main!.key_env = "HERMES_TEST_UNSET_KEY"),
    });
    const { sessionId } = await rig.ok("session.create", {});
    await rig.ok("session.send", { sessionId, text: "Hi" });
    await rig.idle(sessionId);
    const reply = await lastReply(rig, sessionId);
    expect(reply.meta.error).toMatch(
      /^No API key is stored for Main \(and HERMES_TEST_UNSET_KEY is not set\)/,
    );
    expect(reply.meta.error).toMatch(/\(Main answered 401\.\)$/);
    expect(reply.meta.missingKey).toBe("main");
  });
});
