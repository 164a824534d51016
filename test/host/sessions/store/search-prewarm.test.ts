// Prewarming reads the b-tree pages a search passes through, straight from the file: the small
// trees whole, the large ones only above their leaves. Checked against SQLite's own page map.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../fixtures/manual-clock.js";
import { SessionStore } from "../../../../electron/host/sessions/session-store.js";
import {
  prewarmBtrees,
  searchPrewarmPlan,
} from "../../../../electron/host/sessions/search/search-prewarm.js";
import { seededRandom } from "../../../fixtures/seeded-random.js";
import { openStore, snapshot } from "./store-fixtures.js";

type PageRow = { name: string; pageno: number; pagetype: "internal" | "leaf" | "overflow" };

// One seeded store for the tests that only read it: deep enough that the message table and
// index have interior pages above their leaves.
let seeded = "";
beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-prewarm-"));
  seeded = path.join(dir, "sessions.sqlite");
  const clock = new ManualClock();
  const store = new SessionStore({ file: seeded, clock });
  const random = seededRandom(3);
  const word = () => Math.floor(random() * 5000).toString(36);
  store.transaction(() => {
    for (let s = 0; s < 200; s++) {
      const session = store.createSession({ snapshot, title: `${word()} ${word()}` });
      for (let m = 0; m < 10; m++) {
        const content = Array.from({ length: 60 }, word).join(" ");
        store.appendMessage({ sessionId: session.id, role: m % 2 ? "assistant" : "user", content });
      }
    }
  });
  store.close();
}, 60_000);
afterAll(() => fs.rmSync(path.dirname(seeded), { recursive: true, force: true }));

function pageMap(file: string): { rows: PageRow[]; plan: ReturnType<typeof searchPrewarmPlan> } {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare<[], PageRow>("SELECT name, pageno, pagetype FROM dbstat").all();
    return { rows, plan: searchPrewarmPlan(db) };
  } finally {
    db.close();
  }
}

describe("search prewarm", () => {
  it("reads the small trees whole and the large ones down to their leaves", async () => {
    const file = seeded;
    const { rows, plan } = pageMap(file);
    const read = new Set(await prewarmBtrees(file, plan.trees, plan.options));
    const pagesOf = (name: string, type?: PageRow["pagetype"]) =>
      rows
        .filter((row) => row.name === name && (type === undefined || row.pagetype === type))
        .map((r) => r.pageno);

    for (const name of [
      "sessions",
      "sessions_by_updated",
      "sessions_fts_data",
      "messages_fts_idx",
      "messages_terms",
    ]) {
      const tree = [...pagesOf(name, "internal"), ...pagesOf(name, "leaf")];
      expect(tree.length, name).toBeGreaterThan(0);
      expect(
        tree.filter((page) => !read.has(page)),
        name,
      ).toEqual([]);
    }
    for (const name of ["messages", "messages_fts_data"]) {
      const interior = pagesOf(name, "internal");
      expect(interior.length, name).toBeGreaterThan(0);
      expect(
        interior.filter((page) => !read.has(page)),
        name,
      ).toEqual([]);
      // One leaf tells that the level below is the leaves; the rest stay on the disk.
      expect(pagesOf(name, "leaf").filter((page) => read.has(page)).length, name).toBeLessThanOrEqual(1);
    }
    // Nothing outside the planned trees, and no message text (overflow pages).
    const planned = new Set(rows.filter((row) => row.pagetype !== "overflow").map((row) => row.pageno));
    expect([...read].filter((page) => !planned.has(page))).toEqual([]);
  });

  it("stops at its page budget", async () => {
    const file = seeded;
    const { plan } = pageMap(file);
    const read = await prewarmBtrees(file, plan.trees, { ...plan.options, maxPages: 7 });
    expect(read).toHaveLength(7);
  });

  it("skips what is not a b-tree page instead of following it", async () => {
    const file = seeded;
    const { rows, plan } = pageMap(file);
    const overflow =
      rows.find((row) => row.pagetype === "overflow") ?? rows.find((row) => row.pagetype === "leaf")!;
    const read = await prewarmBtrees(
      file,
      [
        { root: overflow.pageno, leaves: true },
        { root: 10 ** 9, leaves: true },
      ],
      plan.options,
    );
    expect(read).toEqual([overflow.pageno]);
  });

  it("runs from an open store and reports what it read; a closed store refuses", async () => {
    const { store: first, reopen } = openStore();
    const session = first.createSession({ snapshot, title: "Warm me" });
    first.appendMessage({ sessionId: session.id, role: "user", content: "hello prewarm" });
    // Closing checkpoints the WAL into the file, where the prewarm reads (pages still only in the
    // WAL are SQLite's to read: it skips them).
    first.close();
    const store = reopen();
    const report = await store.prewarmSearch();
    expect(report.pages).toBeGreaterThan(0);
    expect(store.search("prewarm").map((hit) => hit.id)).toEqual([session.id]);
    store.close();
    await expect(store.prewarmSearch()).rejects.toMatchObject({ reason: "store_closed" });
  });
});
