/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results are read as plain JSON here. */
/**
 * Send first, persist while the request is in flight (issue 7): the person's message is written
 * after the request has gone out, yet always before the reply's first token is shown, and a
 * provider that fails at once still leaves it on disk. (A store that refuses the write: faults.test.ts.)
 */
import net from "node:net";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionStore } from "../../../electron/host/sessions/session-store.js";
import { durableUserMessages } from "./support/durable-messages.js";
import { startSessionRig, type SessionRig } from "./support/session-rig.js";

let rig: SessionRig | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await rig?.dispose();
  rig = null;
});

function storedUserMessages(home: string): { content: string; status: string }[] {
  const db = new Database(join(home, "sessions.sqlite"), { readonly: true });
  try {
    // Keys order a session's messages by seq (message-key.ts).
    return db.prepare("SELECT content, status FROM messages WHERE role = 'user' ORDER BY row").all() as {
      content: string;
      status: string;
    }[];
  } finally {
    db.close();
  }
}

describe("the person's message of a new turn", () => {
  it("is written after the request went out and before the first token is shown", async () => {
    rig = await startSessionRig();
    // A first turn opens the keep-alive connection, as any chat after the first has one: then the
    // request's bytes are on the wire before the write (on a new connection it overlaps the connect).
    rig.main.enqueue("Warm", "Streaming now");
    const warm = await rig.ok("session.create", { title: "Warm" });
    await rig.ok("session.send", { sessionId: warm.sessionId, text: "Open the connection" });
    await rig.idle(warm.sessionId);
    const { sessionId } = await rig.ok("session.create", { title: "Send first" });
    const text = "Order check 7f3a";
    const order: string[] = [];
    // Watches (and passes through) the socket writes: the request body carries the message.
    const socketWrite = net.Socket.prototype.write;
    vi.spyOn(net.Socket.prototype, "write").mockImplementation(function (this: net.Socket, ...args: any[]) {
      const chunk: unknown = args[0];
      const sent =
        typeof chunk === "string"
          ? chunk
          : ArrayBuffer.isView(chunk)
            ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString()
            : "";
      if (sent.includes(text) && !order.includes("request sent")) order.push("request sent");
      return (socketWrite as (...a: any[]) => boolean).apply(this, args);
    });
    const log = SessionStore.prototype.logUserMessage;
    vi.spyOn(SessionStore.prototype, "logUserMessage").mockImplementation(function (
      this: SessionStore,
      ...args: Parameters<SessionStore["logUserMessage"]>
    ) {
      log.apply(this, args);
      order.push("message logged");
    });
    const home = rig.home;
    let onDiskAtFirstDelta: ReturnType<typeof durableUserMessages> | null = null;
    const unsubscribe = rig.host.events.subscribe((frame) => {
      if (frame.params.type !== "session.delta" || order.includes("first delta")) return;
      order.push("first delta");
      onDiskAtFirstDelta = durableUserMessages(home);
    });
    try {
      await rig.ok("session.send", { sessionId, text });
      await rig.idle(sessionId);
    } finally {
      unsubscribe();
    }
    expect(order).toEqual(["request sent", "message logged", "first delta"]);
    expect(onDiskAtFirstDelta).toEqual({ stored: ["Open the connection"], logged: [text] });
    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages.map((m: any) => [m.role, m.content, m.status])).toEqual([
      ["user", text, "complete"],
      ["assistant", "Streaming now", "complete"],
    ]);
    // It is searchable once the reply started, like any settled message.
    expect((await rig.ok("session.list", { query: "7f3a" })).sessions.map((s: any) => s.sessionId)).toEqual([
      sessionId,
    ]);
  });

  it("is logged while the request is in flight, and stored with the reply's first text, as it is shown", async () => {
    rig = await startSessionRig();
    rig.main.fault({ kind: "slow", delayMs: 400 });
    rig.main.enqueue("Reserved reply");
    const { sessionId } = await rig.ok("session.create", { title: "Logged" });
    const home = rig.home;
    const events: { type: string; payload: any }[] = [];
    const reader = new Database(join(home, "sessions.sqlite"), { readonly: true });
    const rows = () =>
      reader.prepare("SELECT role, content, status FROM messages ORDER BY row").all() as {
        role: string;
        content: string;
        status: string;
      }[];
    // The rows are written in the step that shows the first text: read at the next microtask.
    let firstText: { shown: string; storedNext: Promise<{ role: string; content: string }[]> } | null = null;
    const unsubscribe = rig.host.events.subscribe((frame) => {
      events.push({ type: frame.params.type, payload: frame.params.payload });
      if (frame.params.type !== "session.delta" || firstText) return;
      const shown = (frame.params.payload as { text: string }).text;
      const storedNext = new Promise<{ role: string; content: string }[]>((resolve) =>
        queueMicrotask(() => resolve(rows().map(({ role, content }) => ({ role, content })))),
      );
      firstText = { shown, storedNext };
    });
    try {
      await rig.ok("session.send", { sessionId, text: "Hold on" });
      // The provider answers after 400 ms: the message is durable long before, in the pending log.
      await vi.waitFor(() => expect(durableUserMessages(home).logged).toEqual(["Hold on"]), {
        timeout: 300,
        interval: 5,
      });
      expect(rows()).toEqual([]);
      // Nobody was told of a reply yet: it has no text to show.
      expect(
        events.filter((e) => e.type === "session.message" && e.payload.message.role === "assistant"),
      ).toEqual([]);
      await rig.idle(sessionId);
    } finally {
      unsubscribe();
      reader.close();
    }
    expect(firstText).not.toBeNull();
    const first = firstText as unknown as { shown: string; storedNext: Promise<unknown> };
    expect(first.shown.length).toBeGreaterThan(0);
    expect(await first.storedNext).toEqual([
      { role: "user", content: "Hold on" },
      { role: "assistant", content: first.shown },
    ]);
    expect(durableUserMessages(home).logged).toEqual([]);
    const replyEvents = events.filter(
      (e) =>
        (e.type === "session.message" && e.payload.message.role === "assistant") ||
        e.type === "session.delta",
    );
    // Announced once, empty, right before its first text; then its deltas; then the finished record
    // (without its text, which the deltas carried).
    expect(replyEvents[0]).toMatchObject({ type: "session.message", payload: { message: { content: "" } } });
    expect(replyEvents[1]?.type).toBe("session.delta");
    expect(replyEvents.at(-1)).toMatchObject({
      type: "session.message",
      payload: { message: { status: "complete" }, sameContent: true },
    });
    const deltas = replyEvents.filter((e) => e.type === "session.delta").map((e) => e.payload.text);
    expect(deltas.join("")).toBe("Reserved reply");
    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages.map((m: any) => [m.role, m.content, m.status])).toEqual([
      ["user", "Hold on", "complete"],
      ["assistant", "Reserved reply", "complete"],
    ]);
  });

  it("is still stored when the commit with the reply's first text fails after inserting it", async () => {
    rig = await startSessionRig();
    rig.main.enqueue("Lost first");
    const { sessionId } = await rig.ok("session.create", { title: "Rolled back" });
    // The reply's row fails once, after the person's message was inserted in the same commit.
    const append = SessionStore.prototype.appendMessage;
    let failures = 0;
    vi.spyOn(SessionStore.prototype, "appendMessage").mockImplementation(function (
      this: SessionStore,
      ...args: Parameters<SessionStore["appendMessage"]>
    ) {
      if (args[0].role === "assistant" && failures++ === 0) throw new Error("disk I/O error");
      return append.apply(this, args);
    });
    await rig.ok("session.send", { sessionId, text: "Do not drop me" });
    await rig.idle(sessionId);
    expect(failures).toBeGreaterThan(0);
    // The rollback took the message's insert with it: a later write of the turn inserted it again.
    expect(durableUserMessages(rig.home)).toEqual({ stored: ["Do not drop me"], logged: [] });
    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages[0]).toMatchObject({ role: "user", content: "Do not drop me", status: "complete" });
  });

  it("is in the session's messages as soon as the send returns", async () => {
    rig = await startSessionRig();
    rig.main.fault({ kind: "slow", delayMs: 200 });
    rig.main.enqueue("Later");
    const { sessionId } = await rig.ok("session.create", { title: "Read at once" });
    await rig.ok("session.send", { sessionId, text: "Visible now" });
    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages.map((m: any) => m.content)).toEqual(["Visible now"]);
    await rig.idle(sessionId);
  });

  it("is on disk when the provider refuses the request at once", async () => {
    rig = await startSessionRig();
    rig.main.fault({ kind: "http_error", status: 400, message: "bad request" });
    const { sessionId } = await rig.ok("session.create", { title: "Refused" });
    await rig.ok("session.send", { sessionId, text: "Still mine" });
    await rig.idle(sessionId);
    expect(storedUserMessages(rig.home)).toEqual([{ content: "Still mine", status: "complete" }]);
    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages.at(-1)).toMatchObject({ role: "assistant", status: "error" });
  });

  it("is on disk when the provider cannot be reached", async () => {
    rig = await startSessionRig({
      configure: (doc) =>
        void (doc.providers = { main: { name: "Main", base_url: "http://127.0.0.1:9/v1" } }),
    });
    const { sessionId } = await rig.ok("session.create", { title: "Unreachable" });
    await rig.ok("session.send", { sessionId, text: "Hello?" });
    await rig.idle(sessionId);
    expect(storedUserMessages(rig.home)).toEqual([{ content: "Hello?", status: "complete" }]);
  });

  it("keeps its place when a steer is written while it is still in memory", async () => {
    rig = await startSessionRig();
    rig.main.fault({ kind: "slow", delayMs: 200 });
    rig.main.enqueue("First answer", "Second answer");
    const { sessionId } = await rig.ok("session.create", { title: "Steered" });
    // Sent in the same tick: the steer's write happens before the turn's request goes out.
    const [first, steer] = await Promise.all([
      rig.ok("session.send", { sessionId, text: "Start" }),
      rig.ok("session.send", { sessionId, text: "Also this", mode: "queue" }),
    ]);
    expect(first.disposition).toBe("started");
    expect(steer.disposition).toBe("queued");
    await rig.idle(sessionId);
    expect(storedUserMessages(rig.home).map((m) => m.content)).toEqual(["Start", "Also this"]);
  });
});
