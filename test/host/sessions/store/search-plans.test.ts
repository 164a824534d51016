// The search planner reads matches in windows and walks sessions newest-updated first; with tiny
// windows every path runs (sorting few candidates, walking, reading on, asking the index about an
// old chat that was resumed). Whatever the path, the answer must be the brute-force one.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SessionSearch } from "../../../../electron/host/sessions/search/session-search.js";
import { openStore, snapshot } from "./store-fixtures.js";
import { seededRandom } from "../../../fixtures/seeded-random.js";

// "gamma" is also the start of "gammaray": a long prefix that is a whole word and more.
const WORDS = [
  "alpha",
  "beta",
  "gamma",
  "gammaray",
  "delta",
  "epsilon",
  "zeta",
  "common",
  "common",
  "common",
];

describe("search plans agree with a brute-force search", () => {
  it.each([1, 2, 3, 7, 1024])("with matches read %i at a time", (hitWindow) => {
    const { store, clock, file } = openStore();
    const random = seededRandom(hitWindow);
    const pick = () => WORDS[Math.floor(random() * WORDS.length)]!;
    const ids: string[] = [];
    for (let s = 0; s < 60; s++) {
      const session = store.createSession({
        snapshot,
        title: random() < 0.2 ? `Title ${pick()}` : undefined,
      });
      ids.push(session.id);
      for (let m = 0; m < 4; m++) {
        clock.advance(1000);
        store.appendMessage({
          sessionId: session.id,
          role: m % 2 ? "assistant" : "user",
          content: `${pick()} ${pick()}`,
        });
      }
    }
    // Old chats resumed later: their updated_at is newer than chats created after them.
    for (const id of [ids[2]!, ids[10]!, ids[33]!]) {
      clock.advance(1000);
      store.appendMessage({ sessionId: id, role: "user", content: "resumed epsilon" });
    }

    const db = new Database(file, { readonly: true });
    try {
      const planner = new SessionSearch(db, { hitWindow });
      const byUpdate = store.listSessions().map((s) => s.id);
      for (const query of [
        "alpha",
        "common",
        "epsilon",
        "zeta gamma",
        "gamma",
        "gammar",
        "delt",
        "eps",
        "title",
        "nothinghere",
      ]) {
        for (const limit of [1, 5, 50]) {
          const words = query.split(" ");
          const matches = (text: string, prefixLast: boolean) => {
            const tokens = text.toLowerCase().split(/\W+/);
            return words.every((w, i) =>
              tokens.some((t) => (prefixLast && i === words.length - 1 ? t.startsWith(w) : t === w)),
            );
          };
          const expected = byUpdate
            .filter((id) => {
              const session = store.getSession(id)!;
              return (
                matches(session.title, true) || store.listMessages(id).some((m) => matches(m.content, true))
              );
            })
            .slice(0, limit);
          const got = planner.search(query, { limit }).map((hit) => hit.id);
          expect(got, `${query} (limit ${limit})`).toEqual(expected);
        }
      }
    } finally {
      db.close();
    }
  });

  // Enough sessions that every way of finding the page runs: the known sessions sorted or met by
  // stepping down the updated_at index, the rest of the matches read or the older sessions
  // updated after the bar asked one by one (resumed chats, some found only by their title).
  it.each([1, 5, undefined])(
    "over 400 sessions with resumed chats, matches read %s at a time",
    (hitWindow) => {
      const { store, clock, file } = openStore();
      const random = seededRandom(hitWindow ?? 99);
      const vocabulary = ["alpha", "beta", "gamma", "gammaray", "common", "common", "common", "rare"];
      const pick = () => vocabulary[Math.floor(random() * vocabulary.length)]!;
      const text = () => (random() < 0.1 ? `${pick()} ${pick()} ${pick()}` : `${pick()} filler`);
      const ids: string[] = [];
      store.transaction(() => {
        for (let s = 0; s < 400; s++) {
          const roll = random();
          const title = roll < 0.05 ? "Trip to Lisbon" : roll < 0.2 ? `Title ${pick()}` : undefined;
          ids.push(store.createSession(title === undefined ? { snapshot } : { snapshot, title }).id);
          for (let m = 0; m < 2; m++) {
            clock.advance(1000);
            store.appendMessage({ sessionId: ids[s]!, role: m ? "assistant" : "user", content: text() });
          }
        }
      });
      for (let r = 0; r < 30; r++) {
        clock.advance(1000);
        const id = ids[Math.floor(random() * 300)]!;
        if (r % 5 === 0) store.renameSession(id, "Lisbon again");
        store.appendMessage({ sessionId: id, role: "user", content: r % 3 ? "resumed filler" : text() });
      }

      const db = new Database(file, { readonly: true });
      try {
        const planner = new SessionSearch(db, hitWindow === undefined ? {} : { hitWindow });
        const sessions = store.listSessions({ limit: 1000 }).map((session) => ({
          id: session.id,
          texts: [session.title, ...store.listMessages(session.id).map((m) => m.content)],
        }));
        for (const query of [
          "common",
          "alpha",
          "rare",
          "gamma",
          "gammar",
          "lisbon",
          "common rare",
          "filler",
          "zzz",
        ]) {
          const words = query.split(" ");
          const matches = (text: string) => {
            const tokens = text.toLowerCase().split(/\W+/);
            return words.every((w, i) =>
              tokens.some((t) => (i === words.length - 1 ? t.startsWith(w) : t === w)),
            );
          };
          for (const limit of [1, 10, 50]) {
            const expected = sessions
              .filter((session) => session.texts.some(matches))
              .slice(0, limit)
              .map((session) => session.id);
            const got = planner.search(query, { limit }).map((hit) => hit.id);
            expect(got, `${query} (limit ${limit})`).toEqual(expected);
          }
        }
      } finally {
        db.close();
      }
    },
  );
});
