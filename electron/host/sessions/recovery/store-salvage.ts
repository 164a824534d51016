/**
 * Copies what can still be read from a damaged session store into a fresh one. better-sqlite3 has
 * no `.recover`, so this walks each table by its integer key: a read that meets a damaged page is
 * resumed past it (probing further ahead, doubling each time), so the rows on the pages around the
 * damage are kept. Rows a fresh store refuses (a broken value) are counted as lost.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { openSessionDatabase } from "../store/open-database.js";

export type SalvageCounts = { sessions: number; messages: number; usage: number; lostRegions: number };

// Parents before children, so the keys that tie them stay the same.
const TABLES = ["sessions", "messages", "message_chunks", "usage"] as const;
type TableName = (typeof TABLES)[number];

const LARGEST_KEY = Number.MAX_SAFE_INTEGER;

/** Creates `freshFile` at the latest schema and fills it from `damagedFile` (opened read-only). */
export function salvageInto(damagedFile: string, freshFile: string): SalvageCounts {
  const counts: SalvageCounts = { sessions: 0, messages: 0, usage: 0, lostRegions: 0 };
  const target = openSessionDatabase(freshFile, { busyTimeoutMs: 1_000 });
  const copy = readableCopy(damagedFile);
  let source: Database.Database | undefined;
  try {
    try {
      source = new Database(copy.file, { readonly: true, fileMustExist: true });
    } catch {
      return counts; // nothing readable: the fresh store starts empty
    }
    // Children whose parent was lost get a stand-in below; the keys are checked after the copy.
    target.pragma("foreign_keys = OFF");
    target.transaction(() => {
      for (const table of TABLES) {
        const copied = copyTable(source as Database.Database, target, table, counts);
        if (table === "sessions" || table === "messages" || table === "usage") counts[table] = copied;
      }
      adoptOrphans(target);
      reindex(target);
    })();
  } finally {
    source?.close();
    copy.remove();
    target.pragma("foreign_keys = ON");
    target.close();
  }
  return counts;
}

/**
 * A scratch copy of the damaged file (and its log) to read from, so the moved-aside original keeps
 * its exact bytes and gets no companions. A truncated copy is padded with zeros up to the size its
 * header claims: SQLite refuses a file shorter than that outright, but reads a zeroed page as one
 * damaged page among readable ones.
 */
function readableCopy(damagedFile: string): { file: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(path.dirname(damagedFile), ".salvage-"));
  const file = path.join(dir, "salvage.sqlite");
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    fs.copyFileSync(damagedFile, file);
    if (fs.existsSync(`${damagedFile}-wal`)) fs.copyFileSync(`${damagedFile}-wal`, `${file}-wal`);
    const claimed = claimedSize(file);
    if (claimed > fs.statSync(file).size) fs.truncateSync(file, claimed);
  } catch (error) {
    remove();
    throw error;
  }
  return { file, remove };
}

function claimedSize(file: string): number {
  const header = Buffer.alloc(100);
  const fd = fs.openSync(file, "r");
  try {
    const read = fs.readSync(fd, header, 0, 100, 0);
    if (read < 100 || header.toString("latin1", 0, 16) !== "SQLite format 3\0") return 0;
  } finally {
    fs.closeSync(fd);
  }
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
  return pageSize >= 512 ? pageSize * header.readUInt32BE(28) : 0;
}

function columnsOf(db: Database.Database, table: TableName): string[] {
  try {
    return (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name);
  } catch {
    return []; // the schema itself is unreadable
  }
}

function copyTable(
  source: Database.Database,
  target: Database.Database,
  table: TableName,
  counts: SalvageCounts,
): number {
  const targetColumns = new Set(columnsOf(target, table));
  const columns = columnsOf(source, table).filter((name) => targetColumns.has(name));
  if (!columns.includes("row")) return 0;
  const list = columns.map((c) => `"${c}"`).join(", ");
  const read = source.prepare(`SELECT ${list} FROM ${table} WHERE row > ? ORDER BY row`);
  const insert = target.prepare(
    `INSERT OR IGNORE INTO ${table} (${list}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  let after = -LARGEST_KEY;
  let copied = 0;
  for (;;) {
    const resumedAt = after;
    try {
      // Row by row: the rows read before a damaged page are kept.
      for (const row of read.iterate(after) as Iterable<Record<string, unknown>>) {
        after = row.row as number;
        try {
          if (insert.run(...columns.map((c) => row[c])).changes) copied += 1;
        } catch {
          // A value the schema refuses (a page half overwritten): that row is lost.
        }
      }
      return copied;
    } catch {
      counts.lostRegions += 1;
      const next = nextReadableKey(source, table, after);
      if (next === null) return copied;
      // A key a seek finds but a scan from just before cannot reach: step over it.
      after = after === resumedAt && next - 1 <= after ? next : next - 1;
    }
  }
}

/**
 * The first key that can be read past a damaged stretch starting after `after`: probes
 * `after + 1, + 2, + 4…` until a seek works, then narrows down between the last two probes so the
 * rows just past the damage are not skipped. Null when nothing readable follows.
 */
function nextReadableKey(source: Database.Database, table: TableName, after: number): number | null {
  const probe = source.prepare(`SELECT row FROM ${table} WHERE row > ? ORDER BY row LIMIT 1`);
  const seek = (from: number): number | null | "damaged" => {
    try {
      const found = probe.get(from) as { row: number } | undefined;
      return found ? found.row : null;
    } catch {
      return "damaged";
    }
  };
  let failed = after;
  for (let jump = 1; after + jump < LARGEST_KEY; jump *= 2) {
    const found = seek(after + jump);
    if (found === "damaged") {
      failed = after + jump;
      continue;
    }
    // Narrow (failed, after + jump] down to the first seek that works.
    let low = failed;
    let high = after + jump;
    let best = found;
    while (high - low > 1) {
      const middle = low + Math.floor((high - low) / 2);
      const result = seek(middle);
      if (result === "damaged") low = middle;
      else {
        high = middle;
        best = result;
      }
    }
    return best;
  }
  return null;
}

/** Messages and usage whose chat was lost are kept under a stand-in chat the person can open. */
function adoptOrphans(target: Database.Database): void {
  const orphans = target
    .prepare(
      `SELECT session_row AS row, min(created_at) AS first, max(created_at) AS last FROM (
         SELECT session_row, created_at FROM messages UNION ALL SELECT session_row, created_at FROM usage
       ) WHERE session_row NOT IN (SELECT row FROM sessions) GROUP BY session_row`,
    )
    .all() as { row: number; first: number; last: number }[];
  const snapshot = target.prepare("SELECT settings_snapshot FROM sessions LIMIT 1").pluck().get() as
    string | undefined;
  const insert = target.prepare(
    `INSERT INTO sessions (row, id, title, title_state, settings_snapshot, created_at, updated_at)
     VALUES (?, ?, ?, 'set', ?, ?, ?)`,
  );
  for (const orphan of orphans) {
    insert.run(
      orphan.row,
      randomUUID(),
      "Recovered chat",
      snapshot ?? JSON.stringify(EMPTY_SNAPSHOT),
      orphan.first,
      orphan.last,
    );
  }
  target.exec("DELETE FROM message_chunks WHERE message_row NOT IN (SELECT row FROM messages)");
}

const EMPTY_SNAPSHOT = {
  mainRoute: { provider: "", model: "" },
  systemPrompt: "",
  prefillMessages: [],
  ephemeralSystemPrompt: null,
};

/** Copied messages skip the insert path that indexes them: index what search covers (migrations.ts). */
function reindex(target: Database.Database): void {
  target.exec(`
    INSERT INTO messages_fts (rowid, content)
      SELECT row, content FROM messages WHERE role IN ('user', 'assistant') AND status <> 'streaming';
    INSERT OR IGNORE INTO messages_terms (term) SELECT term FROM messages_vocab;
  `);
}
