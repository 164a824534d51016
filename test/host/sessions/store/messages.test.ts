import { describe, expect, it } from "vitest";
import { openStore, snapshot } from "./store-fixtures.js";

describe("SessionStore messages", () => {
  it("appends in order with seq, defaults and meta, across interleaved sessions", () => {
    const { store, clock } = openStore();
    const a = store.createSession({ snapshot });
    const b = store.createSession({ snapshot });
    store.appendMessage({ sessionId: a.id, turnId: "t1", role: "user", content: "a0" });
    clock.advance(10);
    store.appendMessage({ sessionId: b.id, role: "notice", content: "b0" });
    const a1 = store.appendMessage({
      sessionId: a.id,
      turnId: "t1",
      role: "assistant",
      content: "a1",
      meta: { provider: "fallback-provider", toolCalls: [{ id: "call_1", name: "search", arguments: "{}" }] },
    });
    store.appendMessage({
      sessionId: a.id,
      turnId: "t1",
      role: "tool",
      content: "a2",
      meta: { toolCallId: "call_1" },
    });

    const listed = store.listMessages(a.id);
    expect(listed.map((m) => [m.content, m.seq, m.role])).toEqual([
      ["a0", 0, "user"],
      ["a1", 1, "assistant"],
      ["a2", 2, "tool"],
    ]);
    expect(listed[1]).toEqual(a1);
    expect(a1).toMatchObject({ sessionId: a.id, turnId: "t1", status: "complete", createdAt: clock.now() });
    expect(listed[1]?.meta.toolCalls?.[0]?.name).toBe("search");
    expect(store.listMessages(b.id)).toMatchObject([{ content: "b0", seq: 0, turnId: null, meta: {} }]);
  });

  it("streams a reply with appendDelta, then finishes it", () => {
    const { store } = openStore();
    const session = store.createSession({ snapshot });
    const reply = store.appendMessage({
      sessionId: session.id,
      turnId: "t",
      role: "assistant",
      status: "streaming",
    });
    for (const piece of ["Hel", "lo, ", "world"]) expect(store.appendDelta(reply.id, piece)).toBe(true);
    expect(store.getMessage(reply.id)).toMatchObject({ content: "Hello, world", status: "streaming" });

    const done = store.updateMessage(reply.id, { status: "complete", meta: { provider: "fake" } });
    expect(done).toMatchObject({ content: "Hello, world", status: "complete", meta: { provider: "fake" } });
  });

  it("drops a delta that arrives after the reply was stopped, keeping the partial text", () => {
    const { store } = openStore();
    const session = store.createSession({ snapshot });
    const reply = store.appendMessage({ sessionId: session.id, role: "assistant", status: "streaming" });
    store.appendDelta(reply.id, "partial");
    store.updateMessage(reply.id, { status: "stopped" });
    expect(store.appendDelta(reply.id, " late")).toBe(false);
    expect(store.getMessage(reply.id)).toMatchObject({ content: "partial", status: "stopped" });
    expect(() => store.appendDelta("00000000-0000-4000-8000-000000000000", "x")).toThrow(
      expect.objectContaining({ reason: "not_found" }),
    );
  });

  it("merges meta on update (null removes a key) and can replace content", () => {
    const { store } = openStore();
    const session = store.createSession({ snapshot });
    const m = store.appendMessage({
      sessionId: session.id,
      role: "user",
      content: "draft",
      meta: { disposition: "queued", provider: "p" },
    });
    const updated = store.updateMessage(m.id, {
      content: "final",
      meta: { disposition: "steered", provider: null },
    });
    expect(updated.content).toBe("final");
    expect(updated.meta).toEqual({ disposition: "steered" });
    const errored = store.updateMessage(m.id, { status: "error", meta: { error: "provider said 500" } });
    expect(errored).toMatchObject({
      content: "final",
      status: "error",
      meta: { disposition: "steered", error: "provider said 500" },
    });
    expect(() => store.updateMessage("00000000-0000-4000-8000-000000000000", { status: "error" })).toThrow(
      expect.objectContaining({ reason: "not_found" }),
    );
  });

  it("marks a reply left streaming by a crash as interrupted at the next open, keeping its text", () => {
    const { store, reopen } = openStore();
    expect(store.interruptedAtOpen).toBe(0);
    const session = store.createSession({ snapshot });
    store.appendMessage({ sessionId: session.id, role: "user", content: "tell me a story" });
    const reply = store.appendMessage({ sessionId: session.id, role: "assistant", status: "streaming" });
    store.appendDelta(reply.id, "Once upon a ");
    // A crash: the process dies without finishing the reply (closing changes nothing about it).
    store.close();

    const again = reopen();
    expect(again.interruptedAtOpen).toBe(1);
    expect(again.getMessage(reply.id)).toMatchObject({ content: "Once upon a ", status: "interrupted" });
    expect(again.listMessages(session.id).map((m) => m.status)).toEqual(["complete", "interrupted"]);
    // Once finished as interrupted, the partial reply is searchable.
    expect(again.search("upon").map((hit) => hit.snippet?.messageId)).toEqual([reply.id]);
    expect(again.markStreamingAsInterrupted()).toBe(0);
  });

  it("a person's message written index-later is durable at once and searchable once settled or reopened", () => {
    const { store, reopen } = openStore();
    const session = store.createSession({ snapshot });
    const settled = store.appendUserMessageIndexLater({
      sessionId: session.id,
      role: "user",
      content: "kiwi one",
    });
    expect(settled.status).toBe("complete");
    expect(store.search("kiwi")).toEqual([]);
    store.settleUserMessage(settled.id);
    store.settleUserMessage(settled.id); // a no-op the second time
    expect(store.search("kiwi").map((hit) => hit.snippet?.messageId)).toEqual([settled.id]);
    // A crash before settling: the next open completes it, and it is no reply to mark interrupted.
    const crashed = store.appendUserMessageIndexLater({
      sessionId: session.id,
      role: "user",
      content: "mango two",
    });
    store.close();
    const again = reopen();
    expect(again.interruptedAtOpen).toBe(0);
    expect(again.getMessage(crashed.id)).toMatchObject({ content: "mango two", status: "complete" });
    expect(again.search("mango").map((hit) => hit.snippet?.messageId)).toEqual([crashed.id]);
  });

  it("marks messages left waiting for their turn as not sent at the next open", () => {
    const { store, reopen } = openStore();
    const session = store.createSession({ snapshot });
    const waiting = store.appendMessage({
      sessionId: session.id,
      role: "user",
      content: "later",
      meta: { disposition: "queued", pending: true },
    });
    store.close();
    const again = reopen();
    expect(again.notSentAtOpen).toBe(1);
    expect(again.getMessage(waiting.id)).toMatchObject({
      status: "interrupted",
      meta: { disposition: "queued", notSent: true },
    });
    expect(again.getMessage(waiting.id)?.meta.pending).toBeUndefined();
    expect(reopen().notSentAtOpen).toBe(0);
  });
});
