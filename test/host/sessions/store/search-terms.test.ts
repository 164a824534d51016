// The word list that completes a typed prefix (search-terms.ts) must never lack a word of the
// message index, whichever way the text got indexed; the migration that builds it on an existing
// store must leave every search answer exactly as the index's own vocabulary gave it before.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { LATEST_SCHEMA_VERSION } from "../../../../electron/host/sessions/store/migrations.js";
import { SessionSearch } from "../../../../electron/host/sessions/search/session-search.js";
import type { WordCompletions } from "../../../../electron/host/sessions/store/text/search-terms.js";
import { seededRandom } from "../../../fixtures/seeded-random.js";
import { openStore, snapshot } from "./store-fixtures.js";

function wordSets(file: string): { index: Set<string>; list: Set<string> } {
  const db = new Database(file, { readonly: true });
  try {
    const index = db.prepare("SELECT term FROM messages_vocab WHERE doc > 0").pluck().all() as string[];
    const list = db.prepare("SELECT term FROM messages_terms").pluck().all() as string[];
    return { index: new Set(index), list: new Set(list) };
  } finally {
    db.close();
  }
}

function missingFromList(file: string): string[] {
  const { index, list } = wordSets(file);
  return [...index].filter((term) => !list.has(term));
}

// Plain ASCII (every code point, so every separator) and text the ASCII shortcut must not take.
function randomText(random: () => number): string {
  const unicode = [
    "Crème",
    "brûlée",
    "ÆRØ",
    "naïve",
    "日本語",
    "Straße",
    "ǅemal",
    "🎉party",
    "ﬁne",
    "İstanbul",
  ];
  const parts: string[] = [];
  for (let i = 0; i < 12; i++) {
    if (random() < 0.15) parts.push(unicode[Math.floor(random() * unicode.length)]!);
    else parts.push(String.fromCharCode(...Array.from({ length: 6 }, () => Math.floor(random() * 128))));
  }
  return parts.join(random() < 0.5 ? " " : "");
}

describe("the search word list", () => {
  it("holds every word the index holds, whichever way a message was indexed", () => {
    const { store, file, reopen } = openStore();
    const random = seededRandom(7);
    const session = store.createSession({ snapshot });
    for (let i = 0; i < 40; i++) {
      store.appendMessage({
        sessionId: session.id,
        role: i % 2 ? "assistant" : "user",
        content: randomText(random),
      });
    }
    expect(wordSets(file).list).toEqual(wordSets(file).index);

    // A person's message indexed once it is settled; a streamed reply once it ends; an edit.
    const later = store.appendUserMessageIndexLater({
      sessionId: session.id,
      role: "user",
      content: "Deferred wörds",
    });
    store.settleUserMessage(later.id);
    const reply = store.appendMessage({
      sessionId: session.id,
      role: "assistant",
      content: "",
      status: "streaming",
    });
    store.appendDelta(reply.id, "Streamed replyword ");
    store.appendDelta(reply.id, "Ünïcode tail");
    store.updateMessage(reply.id, { status: "complete" });
    store.updateMessage(later.id, { content: "Edited editedword" });
    expect(missingFromList(file)).toEqual([]);

    // A reply left streaming by a crash is indexed as interrupted at the next open.
    const crashed = store.appendMessage({
      sessionId: session.id,
      role: "assistant",
      content: "",
      status: "streaming",
    });
    store.appendDelta(crashed.id, "crashword partial");
    store.close();
    const reopened = reopen();
    expect(reopened.getMessage(crashed.id)?.status).toBe("interrupted");
    expect(missingFromList(file)).toEqual([]);
    expect(wordSets(file).list.has("crashword")).toBe(true);

    // A deleted message may leave its words behind (they match nothing); none goes missing.
    reopened.deleteMessages([reply.id]);
    expect(missingFromList(file)).toEqual([]);
    expect(reopened.search("replyw")).toEqual([]);
  });

  it("keeps no words of a transaction that was rolled back", () => {
    const { store, file } = openStore();
    const session = store.createSession({ snapshot });
    expect(() =>
      store.transaction(() => {
        store.appendMessage({ sessionId: session.id, role: "user", content: "vanishingword" });
        throw new Error("abandoned");
      }),
    ).toThrow("abandoned");
    expect(wordSets(file).list.has("vanishingword")).toBe(false);
  });

  it("is built from the index when an existing store is migrated, and every answer stays the same", () => {
    const { store, file, reopen } = openStore();
    const random = seededRandom(11);
    const stems = ["alpha", "alphabet", "gamma", "gammaray", "crème", "Brûlée", "naïve", "common", "日本"];
    // More longer words behind one prefix than search spells out (it then asks FTS5 for the prefix).
    for (let i = 0; i < 80; i++) stems.push(`zqab${String.fromCharCode(97 + (i % 26))}${i}`);
    const pick = () => stems[Math.floor(random() * stems.length)]!;
    store.transaction(() => {
      for (let s = 0; s < 150; s++) {
        const session = store.createSession(
          random() < 0.2 ? { snapshot, title: `Title ${pick()}` } : { snapshot },
        );
        for (let m = 0; m < 3; m++) {
          store.appendMessage({
            sessionId: session.id,
            role: m % 2 ? "assistant" : "user",
            content: `${pick()} ${pick()} filler ${pick()}`,
          });
        }
      }
    });
    store.close();
    downgradeToVersion3(file);
    reopen().close();

    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma("user_version", { simple: true })).toBe(LATEST_SCHEMA_VERSION);
      expect(missingFromList(file)).toEqual([]);
      const current = new SessionSearch(db);
      const before = new SessionSearch(db, { terms: new IndexVocabulary(db) });
      const queries = ["zqab", "zqa", "common alph", "gamma ", "日", "filler zqab"];
      for (const stem of stems.slice(0, 12)) {
        for (let n = 1; n <= stem.length; n++) queries.push(stem.slice(0, n));
      }
      for (const query of queries) {
        for (const limit of [1, 5, 50]) {
          expect(current.search(query, { limit }), `${query} (limit ${limit})`).toEqual(
            before.search(query, { limit }),
          );
        }
      }
      expect(current.search("zqab", { limit: 500 }).length).toBeGreaterThan(50);
    } finally {
      db.close();
    }
  });
});

/** The file as schema version 3 left it: no word list (nor the later chunks table), the update trigger of version 1. */
function downgradeToVersion3(file: string): void {
  const db = new Database(file);
  try {
    db.exec(`
      DROP TABLE message_chunks;
      DROP TABLE messages_terms;
      DROP TABLE messages_terms_pending;
      DROP TRIGGER messages_fts_update;
      CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, status ON messages
      WHEN NOT (old.status = 'streaming' AND new.status = 'streaming')
      BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content)
          SELECT 'delete', old.row, old.content WHERE old.role IN ('user', 'assistant') AND old.status <> 'streaming';
        INSERT INTO messages_fts (rowid, content)
          SELECT new.row, new.content WHERE new.role IN ('user', 'assistant') AND new.status <> 'streaming';
      END;
      PRAGMA user_version = 3;
    `);
  } finally {
    db.close();
  }
}

/** How search completed a prefix before the word list: the index's vocabulary, one word at a time. */
class IndexVocabulary implements WordCompletions {
  private readonly next: Database.Statement<[string, string], string>;
  constructor(db: Database.Database) {
    db.exec(
      "CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab_before USING fts5vocab(main, messages_fts, instance)",
    );
    this.next = db
      .prepare<[string, string], string>(
        "SELECT term FROM temp.vocab_before WHERE term >= ? AND term < ? LIMIT 1",
      )
      .pluck();
  }
  completions(prefix: string, max: number): string[] {
    const longer: string[] = [];
    for (let from = `${prefix}\0`; longer.length < max;) {
      const term = this.next.get(from, `${prefix}\u{10FFFF}`);
      if (term === undefined) break;
      longer.push(term);
      from = `${term}\0`;
    }
    return longer;
  }
}
