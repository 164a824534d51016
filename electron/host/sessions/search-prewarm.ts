import fs from "node:fs/promises";
import type { Database } from "better-sqlite3";

/** One b-tree of the store file: its root page, and whether its leaves are read too. */
export type PrewarmTree = { root: number; leaves: boolean };

export type PrewarmOptions = {
  pageSize: number;
  /** Stops after this many pages (a bound on the cost for a very large store). */
  maxPages: number;
  /** Reads in flight at once: a cold disk answers many parallel reads about as fast as one. */
  concurrency: number;
};

// What a search reads, most useful first: these b-trees whole (they grow with the number of
// sessions and words, not with the messages) …
const WHOLE_FIRST = ["messages_fts_idx", "sessions_by_updated", "messages_terms", "sessions_fts_idx"];
// … these only down to their leaves (the whole would be most of the file) …
const INTERIOR_ONLY = ["messages", "messages_fts_data"];
// … and these whole last, as far as the budget goes.
const WHOLE_LAST = ["sessions_fts_data", "sessions"];
// About 64 MB of 4 KB pages: enough for 100,000 sessions and 2,000,000 messages.
const MAX_PAGES = 16_384;
// Two reads in flight: most of a parallel disk's gain, and Node's four file threads stay free for the app.
const CONCURRENCY = 2;

/** The b-trees a search reads in this store, and how far to read them. */
export function searchPrewarmPlan(db: Database): { trees: PrewarmTree[]; options: PrewarmOptions } {
  const roots = new Map(
    db
      .prepare<[], { name: string; rootpage: number }>(
        "SELECT name, rootpage FROM sqlite_schema WHERE rootpage > 0",
      )
      .all()
      .map((row) => [row.name, row.rootpage]),
  );
  const tree =
    (leaves: boolean) =>
    (name: string): PrewarmTree[] => {
      const root = roots.get(name);
      return root === undefined ? [] : [{ root, leaves }];
    };
  return {
    trees: [
      ...WHOLE_FIRST.flatMap(tree(true)),
      ...INTERIOR_ONLY.flatMap(tree(false)),
      ...WHOLE_LAST.flatMap(tree(true)),
    ],
    options: {
      pageSize: db.pragma("page_size", { simple: true }) as number,
      maxPages: MAX_PAGES,
      concurrency: CONCURRENCY,
    },
  };
}

// B-tree page types (https://www.sqlite.org/fileformat2.html#b_tree_pages).
const INDEX_INTERIOR = 0x02;
const TABLE_INTERIOR = 0x05;
const INDEX_LEAF = 0x0a;
const TABLE_LEAF = 0x0d;

/**
 * Reads b-tree pages of the store file into the operating system's page cache, so that the first
 * searches after a reboot find them there instead of waiting on the disk one page at a time.
 * Small trees are read whole; for large ones (every message, the message index) only the interior
 * pages, which every lookup passes through. The reads go straight to the file, in parallel and off
 * the main thread, and only ever warm the cache: a page that changed meanwhile (in the WAL) or a
 * page that is not what it seems is simply skipped, SQLite reads its own pages as always.
 * Returns the pages read, upper levels first.
 */
export async function prewarmBtrees(
  file: string,
  trees: readonly PrewarmTree[],
  options: PrewarmOptions,
): Promise<number[]> {
  const handle = await fs.open(file, "r");
  const read: number[] = [];
  const seen = new Set<number>();
  const pageCount = Math.floor((await handle.stat()).size / options.pageSize);
  const readPages = async (pages: readonly number[]): Promise<Map<number, Buffer>> => {
    const found = new Map<number, Buffer>();
    let next = 0;
    const worker = async () => {
      while (next < pages.length) {
        const page = pages[next++]!;
        if (seen.has(page) || page < 2 || page > pageCount || read.length >= options.maxPages) continue;
        seen.add(page);
        read.push(page);
        const buffer = Buffer.alloc(options.pageSize);
        await handle.read(buffer, 0, options.pageSize, (page - 1) * options.pageSize);
        found.set(page, buffer);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    return found;
  };
  try {
    for (const tree of trees) {
      // Level by level: a b-tree's leaves all sit at the same depth, so one child tells whether
      // the next level is the leaves (then only a small tree's are read).
      let level = [tree.root];
      while (level.length > 0 && read.length < options.maxPages) {
        const pages = await readPages(level);
        const children = level.flatMap((page) => childrenOf(pages.get(page)));
        if (children.length === 0) break;
        if (!tree.leaves) {
          const probe = await readPages([children[0]!]);
          if (isLeaf(probe.get(children[0]!))) break;
        }
        level = children;
      }
    }
  } finally {
    await handle.close();
  }
  return read;
}

function isLeaf(page: Buffer | undefined): boolean {
  return page !== undefined && (page[0] === TABLE_LEAF || page[0] === INDEX_LEAF);
}

/** The child page numbers of an interior page; none for a leaf or a page that is not a b-tree page. */
function childrenOf(page: Buffer | undefined): number[] {
  if (page === undefined || (page[0] !== TABLE_INTERIOR && page[0] !== INDEX_INTERIOR)) return [];
  const cells = page.readUInt16BE(3);
  if (12 + 2 * cells > page.length) return [];
  const children: number[] = [];
  for (let cell = 0; cell < cells; cell++) {
    const offset = page.readUInt16BE(12 + 2 * cell);
    if (offset + 4 > page.length) return [];
    children.push(page.readUInt32BE(offset));
  }
  children.push(page.readUInt32BE(8));
  return children;
}
