/**
 * The pending log (pending-log.ts): a person's message made durable while its request is in
 * flight, without a store commit. What is logged and not inserted is inserted at the next open,
 * complete and searchable; what was inserted or reported not saved is not inserted twice or at all.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { SessionStoreError } from "../../../../electron/host/sessions/store/session-store-error.js";
import { openStore, snapshot } from "./store-fixtures.js";

const input = (sessionId: string, content: string) =>
  ({ sessionId, turnId: "t1", role: "user", content, meta: { disposition: "started" } }) as const;

/** The texts of a chat's messages, in order. */
const contents = (store: ReturnType<typeof openStore>["store"], sessionId: string) =>
  store.listMessages(sessionId).map((m) => m.content);

describe("the store's pending log", () => {
  it("inserts a logged message at the next open: in order, complete, searchable, its chat moved up", () => {
    const { store, clock, file, reopen } = openStore();
    const chat = store.createSession({ snapshot, title: "Crashed" });
    store.appendMessage({ sessionId: chat.id, role: "user", content: "earlier" });
    store.appendMessage({ sessionId: chat.id, role: "assistant", content: "earlier reply" });
    clock.advance(10);
    store.createSession({ snapshot, title: "Newer" });
    store.logUserMessage(input(chat.id, "wombat question"), { id: "m-1", createdAt: 42 });
    clock.advance(10);
    expect(fs.readFileSync(`${file}-pending`, "utf8")).toContain("wombat question");
    store.close();

    const after = reopen();
    expect(after.listMessages(chat.id).map((m) => [m.id, m.content, m.status, m.seq])).toEqual([
      [expect.any(String), "earlier", "complete", 0],
      [expect.any(String), "earlier reply", "complete", 1],
      ["m-1", "wombat question", "complete", 2],
    ]);
    expect(after.getMessage("m-1")).toMatchObject({ createdAt: 42, meta: { disposition: "started" } });
    expect(after.search("wombat").map((hit) => hit.id)).toEqual([chat.id]);
    expect(after.listSessions()[0]?.title).toBe("Crashed");
    expect(fs.readFileSync(`${file}-pending`, "utf8")).toBe("");
  });

  it("is emptied once its messages are inserted, so no open inserts them twice", () => {
    const { store, file, reopen } = openStore();
    const chat = store.createSession({ snapshot });
    const keep = { id: "m-2", createdAt: 7 };
    store.logUserMessage(input(chat.id, "once"), keep);
    store.appendUserMessageIndexLater(input(chat.id, "once"), keep);
    expect(fs.readFileSync(`${file}-pending`, "utf8")).toBe("");
    store.close();
    expect(contents(reopen(), chat.id)).toEqual(["once"]);
  });

  it("keeps a message whose insert was rolled back, and inserts it at the next open", () => {
    const { store, reopen } = openStore();
    const chat = store.createSession({ snapshot });
    const keep = { id: "m-3", createdAt: 7 };
    store.logUserMessage(input(chat.id, "rolled back"), keep);
    expect(() =>
      store.transaction(() => {
        store.appendUserMessageIndexLater(input(chat.id, "rolled back"), keep);
        throw new Error("a later write of the same commit failed");
      }),
    ).toThrow(/later write/);
    expect(store.listMessages(chat.id)).toEqual([]);
    store.close();
    expect(contents(reopen(), chat.id)).toEqual(["rolled back"]);
  });

  it("forgets a message reported not saved, and keeps the others outstanding", () => {
    const { store, reopen } = openStore();
    const chat = store.createSession({ snapshot });
    const other = store.createSession({ snapshot });
    store.logUserMessage(input(chat.id, "refused"), { id: "m-4", createdAt: 1 });
    store.logUserMessage(input(other.id, "still wanted"), { id: "m-5", createdAt: 2 });
    store.discardLogged("m-4");
    store.close();
    const after = reopen();
    expect(after.listMessages(chat.id)).toEqual([]);
    expect(contents(after, other.id)).toEqual(["still wanted"]);
  });

  it("skips a torn last line, a line that is no message, and a message whose chat is gone", () => {
    const { store, file, reopen } = openStore();
    const chat = store.createSession({ snapshot });
    const gone = store.createSession({ snapshot });
    store.logUserMessage(input(chat.id, "kept"), { id: "m-6", createdAt: 1 });
    store.logUserMessage(input(gone.id, "chat deleted"), { id: "m-7", createdAt: 2 });
    store.deleteSession(gone.id);
    store.close();
    fs.appendFileSync(`${file}-pending`, '{"not":"a message"}\n["nor this"]\n{"sessionId":"' + chat.id);
    const after = reopen();
    expect(contents(after, chat.id)).toEqual(["kept"]);
    expect(fs.readFileSync(`${file}-pending`, "utf8")).toBe("");
  });

  it("says which file it cannot read at open, as the store's unavailable error", () => {
    const { store, file, reopen } = openStore();
    store.close();
    fs.mkdirSync(`${file}-pending`);
    expect(() => reopen()).toThrow(SessionStoreError);
    expect(() => reopen()).toThrow(`${file}-pending`);
  });

  it("says where it could not log, as the store's unavailable error", () => {
    const { store, file } = openStore();
    const chat = store.createSession({ snapshot });
    // A folder where the log file should be: the append fails as a full or read-only disk would.
    fs.mkdirSync(`${file}-pending`);
    let caught: unknown;
    try {
      store.logUserMessage(input(chat.id, "nowhere"), { id: "m-8", createdAt: 1 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SessionStoreError);
    expect((caught as SessionStoreError).reason).toBe("store_unavailable");
    expect((caught as Error).message).toContain(`${file}-pending`);
  });
});
