import { describe, expect, it } from "vitest";
import type { SessionStore } from "../../../../electron/host/sessions/session-store.js";
import { openStore, snapshot } from "./store-fixtures.js";

function chat(store: SessionStore, title: string | undefined, ...texts: string[]): string {
  const session = store.createSession(title === undefined ? { snapshot } : { snapshot, title });
  texts.forEach((content, i) =>
    store.appendMessage({ sessionId: session.id, role: i % 2 === 0 ? "user" : "assistant", content }),
  );
  return session.id;
}

describe("SessionStore search", () => {
  it("finds a session by its title, without a snippet", () => {
    const { store } = openStore();
    const id = chat(store, "Trip to Lisbon", "what should I pack?");
    chat(store, "Other", "nothing to see");
    const hits = store.search("lisbon");
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ id, title: "Trip to Lisbon", snippet: null });
  });

  it("finds a session by message text, with a snippet whose highlights cover the match", () => {
    const { store } = openStore();
    const id = chat(
      store,
      undefined,
      "How do I configure the Frobnicator on Linux?",
      "Install it, then run frob --init.",
    );
    chat(store, undefined, "unrelated question");
    const [hit, ...rest] = store.search("frobnicator linux");
    expect(rest).toEqual([]);
    expect(hit).toMatchObject({ id, title: "New chat" });
    const snippet = hit?.snippet;
    expect(snippet?.messageId).toBe(store.listMessages(id)[0]?.id);
    expect(snippet?.text).toContain("Frobnicator on Linux");
    const marked = snippet?.highlights.map((h) => snippet.text.slice(h.start, h.end));
    expect(marked).toEqual(["Frobnicator", "Linux"]);
  });

  it("shows a Markdown message as plain text in the snippet, the match still marked", () => {
    const { store } = openStore();
    chat(
      store,
      undefined,
      "Explain this",
      "## Setup\n\nRun **`frobnicate --all`** as the [install guide](https://example.com/guide) says:\n\n```sh\nfrobnicate --all\n```\n\n| flag | means |\n| --- | --- |\n| `--all` | _every_ module |",
    );
    const snippet = store.search("frobnicate")[0]?.snippet;
    expect(snippet?.text).not.toMatch(/[*`#|]|\]\(|https:/);
    expect(snippet?.text).toContain("Run frobnicate --all as the install guide says");
    const marked = snippet?.highlights.map((h) => snippet.text.slice(h.start, h.end));
    expect(marked?.[0]).toBe("frobnicate");
    expect(store.search("module")[0]?.snippet?.text).toContain("every module");
  });

  it("matches every word of the query inside one message", () => {
    const { store } = openStore();
    const both = chat(store, undefined, "apples and pears");
    chat(store, undefined, "apples only", "pears only");
    expect(store.search("pears apples").map((h) => h.id)).toEqual([both]);
  });

  it("ignores case and diacritics", () => {
    const { store } = openStore();
    const id = chat(store, undefined, "Un café crème, s'il vous plaît");
    expect(store.search("CAFE CREME").map((h) => h.id)).toEqual([id]);
    expect(store.search("café").map((h) => h.id)).toEqual([id]);
  });

  it("matches the last word as a prefix while it is being typed", () => {
    const { store } = openStore();
    const id = chat(store, "Packing list", "bring the umbrella and the kalomiwex charger");
    expect(store.search("umbr").map((h) => h.id)).toEqual([id]); // long prefix, from the vocabulary
    expect(store.search("um").map((h) => h.id)).toEqual([id]); // short prefix, from the prefix index
    expect(store.search("pack").map((h) => h.id)).toEqual([id]); // title prefix
    expect(store.search("kalomi").map((h) => h.id)).toEqual([id]);
    expect(store.search("umbr ")).toEqual([]); // a finished word must match whole
    expect(store.search("the umbr").map((h) => h.id)).toEqual([id]);
    expect(store.search("umbrellas")).toEqual([]);
  });

  // 20 completions are spelled out as whole words; 70 are more than that (a plain prefix query).
  it.each([20, 70])("matches a prefix with %i completions", (count) => {
    const { store } = openStore();
    const letter = (n: number) => String.fromCharCode(97 + n);
    const ids = Array.from({ length: count }, (_, i) =>
      chat(store, undefined, `zebra${letter(i % 26)}${letter(Math.floor(i / 26))}x`),
    );
    expect(new Set(store.search("zebr", { limit: 100 }).map((h) => h.id))).toEqual(new Set(ids));
  });

  it("treats hostile query text as words, never as FTS syntax", () => {
    const { store } = openStore();
    const id = chat(store, undefined, 'he said foo"bar and NOT near(the) end -- col:value ^start * done');
    const hostile = [
      'foo"bar',
      '"',
      '""',
      "AND",
      "OR",
      "NOT",
      "a AND",
      "AND OR NOT",
      "*",
      "-",
      "--",
      "-foo",
      "foo*",
      "NEAR(",
      "NEAR(a b, 2)",
      "(",
      ")",
      "{col}",
      "col:value",
      "^start",
      "'",
      "\u0000",
      "\u0301",
      "🙂",
      " ",
      "",
      "x".repeat(5000),
      "a ".repeat(300),
    ];
    for (const query of hostile) {
      expect(() => store.search(query), query).not.toThrow();
      expect(Array.isArray(store.search(query))).toBe(true);
    }
    expect(store.search('foo"bar').map((h) => h.id)).toEqual([id]);
    expect(store.search("AND").map((h) => h.id)).toEqual([id]);
    expect(store.search("NOT near").map((h) => h.id)).toEqual([id]);
    expect(store.search("col:value").map((h) => h.id)).toEqual([id]);
    expect(store.search("-- *")).toEqual([]);
  });

  it("returns sessions newest updated first, up to the limit", () => {
    const { store, clock } = openStore();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      ids.push(chat(store, undefined, `report number ${i} about budgets`));
    }
    chat(store, undefined, "nothing relevant");
    expect(store.search("budgets").map((h) => h.id)).toEqual([...ids].reverse());
    expect(store.search("budgets", { limit: 2 }).map((h) => h.id)).toEqual([ids[4], ids[3]]);
    clock.advance(1000);
    store.touchSession(ids[0] as string);
    expect(store.search("budgets", { limit: 2 }).map((h) => h.id)).toEqual([ids[0], ids[4]]);
  });

  it("indexes a streamed reply once it ends, and follows edits, renames and deletes", () => {
    const { store } = openStore();
    const session = store.createSession({ snapshot });
    const reply = store.appendMessage({ sessionId: session.id, role: "assistant", status: "streaming" });
    store.appendDelta(reply.id, "the answer is xylophone");
    expect(store.search("xylophone")).toEqual([]);
    store.updateMessage(reply.id, { status: "complete" });
    expect(store.search("xylophone").map((h) => h.id)).toEqual([session.id]);

    store.updateMessage(reply.id, { content: "the answer is marimba" });
    expect(store.search("xylophone")).toEqual([]);
    expect(store.search("marimba").map((h) => h.id)).toEqual([session.id]);

    store.renameSession(session.id, "Percussion");
    expect(store.search("percussion").map((h) => h.id)).toEqual([session.id]);
    expect(store.search("new chat")).toEqual([]);

    store.deleteSession(session.id);
    expect(store.search("marimba")).toEqual([]);
    expect(store.search("percussion")).toEqual([]);
  });

  it("leaves tool output and notices out of the index", () => {
    const { store } = openStore();
    const session = store.createSession({ snapshot });
    store.appendMessage({ sessionId: session.id, role: "tool", content: "stacktrace gibberish" });
    store.appendMessage({ sessionId: session.id, role: "notice", content: "answered by fallback gibberish" });
    expect(store.search("gibberish")).toEqual([]);
  });
});

describe("SessionStore search over many matching messages", () => {
  // More than 10,000 matching messages switches to probing sessions newest first.
  function seed(
    store: SessionStore,
    sessions: number,
    perSession: number,
    text: (s: number, m: number) => string,
  ) {
    const ids: string[] = [];
    store.transaction(() => {
      for (let s = 0; s < sessions; s++) {
        const id = store.createSession({ snapshot }).id;
        ids.push(id);
        for (let m = 0; m < perSession; m++)
          store.appendMessage({ sessionId: id, role: "user", content: text(s, m) });
      }
    });
    return ids;
  }

  it("orders a common word's sessions exactly as the session list does", () => {
    const { store, clock } = openStore();
    const ids = seed(store, 800, 16, (s, m) => (s % 7 === 3 ? `plain text ${m}` : `common word ${m}`));
    // Reopen old sessions so the update order differs from the creation order.
    for (const index of [5, 100, 3, 250]) {
      clock.advance(1000);
      store.appendMessage({ sessionId: ids[index] as string, role: "user", content: "common again" });
    }
    const expected = store
      .listSessions()
      .filter((s) => ids.indexOf(s.id) % 7 !== 3 || ids.indexOf(s.id) === 3)
      .slice(0, 30)
      .map((s) => s.id);
    const hits = store.search("common", { limit: 30 });
    expect(hits.map((h) => h.id)).toEqual(expected);
    expect(hits.every((h) => h.snippet?.text.includes("common"))).toBe(true);
  });

  it("still finds every session when the common word sits only in old sessions", () => {
    const { store } = openStore();
    const old = seed(store, 20, 520, (_, m) => `ancient lore ${m}`);
    seed(store, 300, 1, (s) => `fresh chat ${s}`);
    const hits = store.search("ancient", { limit: 25 });
    expect(hits.map((h) => h.id)).toEqual([...old].reverse());
  });
});
