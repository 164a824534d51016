import { describe, expect, it } from "vitest";
import { SessionInputError } from "../../../../electron/host/sessions/store/session-errors.js";
import { SessionStoreError } from "../../../../electron/host/sessions/store/session-store-error.js";
import { openStore, snapshot } from "./store-fixtures.js";

describe("SessionStore sessions", () => {
  it("creates a session titled New chat, pending a generated title, with its frozen settings", () => {
    const { store, clock } = openStore();
    const created = store.createSession({ snapshot });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created).toMatchObject({ title: "New chat", titleState: "pending", createdAt: clock.now() });
    expect(store.getSession(created.id)).toEqual(created);
    expect(store.getSession(created.id)?.snapshot).toEqual(snapshot);
  });

  it("takes a given title as set", () => {
    const { store } = openStore();
    const created = store.createSession({ snapshot, title: "  Trip to Lisbon " });
    expect(store.getSession(created.id)).toMatchObject({ title: "Trip to Lisbon", titleState: "set" });
  });

  it("lists newest updated first, and a new message or a touch moves a session to the top", () => {
    const { store, clock } = openStore();
    const a = store.createSession({ snapshot, title: "a" });
    clock.advance(1000);
    const b = store.createSession({ snapshot, title: "b" });
    clock.advance(1000);
    const c = store.createSession({ snapshot, title: "c" });
    expect(store.listSessions().map((s) => s.title)).toEqual(["c", "b", "a"]);

    clock.advance(1000);
    store.appendMessage({ sessionId: a.id, role: "user", content: "hi" });
    expect(store.listSessions().map((s) => s.title)).toEqual(["a", "c", "b"]);
    expect(store.getSession(a.id)?.updatedAt).toBe(clock.now());

    clock.advance(1000);
    store.touchSession(b.id);
    expect(store.listSessions().map((s) => s.id)).toEqual([b.id, a.id, c.id]);
    expect(store.listSessions({ limit: 2, offset: 1 }).map((s) => s.id)).toEqual([a.id, c.id]);
  });

  it("breaks ties in updated time by creation order, newest first", () => {
    const { store } = openStore();
    const ids = ["one", "two", "three"].map((title) => store.createSession({ snapshot, title }).id);
    expect(store.listSessions().map((s) => s.id)).toEqual([...ids].reverse());
  });

  it("renames without reordering, and records the title state", () => {
    const { store, clock } = openStore();
    const a = store.createSession({ snapshot });
    clock.advance(1000);
    const b = store.createSession({ snapshot });
    clock.advance(1000);
    store.renameSession(a.id, "Generated title", "set");
    store.setTitleState(b.id, "failed");
    expect(store.getSession(a.id)).toMatchObject({
      title: "Generated title",
      titleState: "set",
      updatedAt: a.updatedAt,
    });
    expect(store.getSession(b.id)).toMatchObject({ title: "New chat", titleState: "failed" });
    expect(store.listSessions().map((s) => s.id)).toEqual([b.id, a.id]);
    expect(() => store.renameSession(a.id, "   ")).toThrow(SessionInputError);
  });

  it("reports an unknown session as not_found", () => {
    const { store } = openStore();
    const missing = "00000000-0000-4000-8000-000000000000";
    expect(store.getSession(missing)).toBeUndefined();
    for (const call of [
      () => store.renameSession(missing, "x"),
      () => store.touchSession(missing),
      () => store.listMessages(missing),
      () => store.appendMessage({ sessionId: missing, role: "user", content: "x" }),
      () => store.usage(missing),
    ]) {
      expect(call).toThrow(SessionStoreError);
      try {
        call();
      } catch (error) {
        expect((error as SessionStoreError).reason).toBe("not_found");
        expect((error as SessionStoreError).name).toBe("SessionStoreError");
      }
    }
    expect(store.deleteSession(missing)).toBe(false);
  });

  it("deletes a session with its messages and usage", () => {
    const { store } = openStore();
    const gone = store.createSession({ snapshot });
    const kept = store.createSession({ snapshot });
    const message = store.appendMessage({ sessionId: gone.id, role: "user", content: "to be deleted" });
    store.appendMessage({ sessionId: kept.id, role: "user", content: "to be kept" });
    store.addUsage(gone.id, {
      category: "chat",
      inputTokens: 1,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: null,
    });
    expect(store.deleteSession(gone.id)).toBe(true);
    expect(store.getSession(gone.id)).toBeUndefined();
    expect(store.getMessage(message.id)).toBeUndefined();
    expect(store.listSessions().map((s) => s.id)).toEqual([kept.id]);
    expect(store.listMessages(kept.id).map((m) => m.content)).toEqual(["to be kept"]);
    expect(store.search("deleted")).toEqual([]);
    expect(store.deleteSession(gone.id)).toBe(false);
  });

  it("keeps everything across close and reopen", () => {
    const { store, clock, reopen } = openStore();
    const session = store.createSession({ snapshot, title: "Persistent" });
    clock.advance(5);
    store.appendMessage({ sessionId: session.id, turnId: "t1", role: "user", content: "remember me" });
    store.appendMessage({
      sessionId: session.id,
      turnId: "t1",
      role: "assistant",
      content: "I will",
      meta: { provider: "fake" },
    });
    store.addUsage(session.id, {
      category: "chat",
      inputTokens: 10,
      outputTokens: 3,
      cacheReadTokens: 2,
      cacheWriteTokens: 0,
      costUsd: 0.5,
    });
    const before = { sessions: store.listSessions(), messages: store.listMessages(session.id) };
    store.close();

    const again = reopen();
    expect(again.listSessions()).toEqual(before.sessions);
    expect(again.getSession(session.id)?.snapshot).toEqual(snapshot);
    expect(again.listMessages(session.id)).toEqual(before.messages);
    expect(again.usage(session.id)).toEqual([
      {
        category: "chat",
        inputTokens: 10,
        outputTokens: 3,
        cacheReadTokens: 2,
        cacheWriteTokens: 0,
        costUsd: 0.5,
      },
    ]);
    expect(again.search("remember").map((hit) => hit.id)).toEqual([session.id]);
  });

  it("refuses calls after close with store_closed, and close is idempotent", () => {
    const { store } = openStore();
    store.close();
    store.close();
    expect(() => store.listSessions()).toThrow(expect.objectContaining({ reason: "store_closed" }));
  });

  it("rolls back every write of a failed transaction", () => {
    const { store } = openStore();
    const session = store.createSession({ snapshot });
    expect(() =>
      store.transaction(() => {
        store.appendMessage({ sessionId: session.id, role: "user", content: "half" });
        store.createSession({ snapshot, title: "half" });
        throw new Error("abort");
      }),
    ).toThrow("abort");
    expect(store.listMessages(session.id)).toEqual([]);
    expect(store.listSessions()).toHaveLength(1);
  });

  it("runs transactions one after another, nested ones inside the outer, and gives back what they return", () => {
    const { store } = openStore();
    const session = store.createSession({ snapshot });
    for (let i = 0; i < 3; i++) {
      const seq = store.transaction(() => {
        const inner = store.transaction(() =>
          store.appendMessage({ sessionId: session.id, role: "user", content: `m${i}` }),
        );
        return inner.seq;
      });
      expect(seq).toBe(i);
    }
    // A failing nested part fails the outer one whole.
    expect(() =>
      store.transaction(() => {
        store.appendMessage({ sessionId: session.id, role: "user", content: "lost" });
        store.transaction(() => {
          throw new Error("inner");
        });
      }),
    ).toThrow("inner");
    expect(store.listMessages(session.id).map((m) => m.content)).toEqual(["m0", "m1", "m2"]);
  });
});
