// Pinned chats: first in the list (newest pin first), kept across a reopen, and unpinned back
// into their place by activity.
import { describe, expect, it } from "vitest";
import { openStore, snapshot } from "./store-fixtures.js";

describe("pinned chats", () => {
  it("come first, newest pin first, survive a reopen, and go back into place when unpinned", () => {
    const { store, clock, reopen } = openStore();
    const ids = ["a", "b", "c", "d"].map((title) => {
      clock.advance(1000);
      return store.createSession({ snapshot, title }).id;
    });
    const titles = (s = store) => s.listSessions().map((x) => x.title);
    expect(titles()).toEqual(["d", "c", "b", "a"]);

    clock.advance(1000);
    store.setSessionPinned(ids[0]!, true);
    clock.advance(1000);
    store.setSessionPinned(ids[2]!, true);
    expect(titles()).toEqual(["c", "a", "d", "b"]);
    expect(store.listSessions().map((x) => x.pinned)).toEqual([true, true, false, false]);
    // Limits and offsets run over the whole order, pinned part included.
    expect(store.listSessions({ limit: 3 }).map((x) => x.title)).toEqual(["c", "a", "d"]);
    expect(store.listSessions({ limit: 2, offset: 1 }).map((x) => x.title)).toEqual(["a", "d"]);
    expect(store.listSessions({ offset: 3 }).map((x) => x.title)).toEqual(["b"]);

    const again = reopen();
    expect(titles(again)).toEqual(["c", "a", "d", "b"]);
    again.setSessionPinned(ids[2]!, false);
    expect(titles(again)).toEqual(["a", "d", "c", "b"]);
    expect(() => again.setSessionPinned("no-such-chat", true)).toThrow(/no-such-chat/);
  });
});
