import type NodeFs from "node:fs";
import { Worker } from "node:worker_threads";
import type { Database } from "better-sqlite3";

/** One b-tree of the store file: its root page, and whether its leaves are read too. */
export type PrewarmTree = { root: number; leaves: boolean };

export type PrewarmOptions = {
  pageSize: number;
  /** Stops after this many pages (a bound on the cost for a very large store). */
  maxPages: number;
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
    },
  };
}

/**
 * Reads b-tree pages of the store file into the operating system's page cache, so that the first
 * searches after a reboot find them there instead of waiting on the disk one page at a time.
 * Small trees are read whole; for large ones (every message, the message index) only the interior
 * pages, which every lookup passes through. The reads run in a worker thread (a page read from the
 * main thread costs it ~30 µs of callbacks, a second for a large store), straight from the file,
 * and only ever warm the cache: a page that changed meanwhile (in the WAL) or is not what it seems
 * is skipped, and SQLite reads its own pages as always. Resolves with the pages read, upper levels
 * first.
 */
export function prewarmBtrees(
  file: string,
  trees: readonly PrewarmTree[],
  options: PrewarmOptions,
): Promise<number[]> {
  const input: WalkInput = { file, trees, options };
  // The walk is sent as source text: an eval worker needs no file of its own in the bundled app.
  const source = `
    const { parentPort, workerData } = require("node:worker_threads");
    parentPort.postMessage((${walkBtrees.toString()})(require("node:fs"), workerData));`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: input });
    worker.once("message", (pages: number[]) => resolve(pages));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`The search prewarm stopped early (exit code ${code}).`)));
  });
}

type WalkInput = { file: string; trees: readonly PrewarmTree[]; options: PrewarmOptions };
type SyncFs = Pick<typeof NodeFs, "openSync" | "fstatSync" | "readSync" | "closeSync">;

/**
 * The walk, run in the worker: level by level, since a b-tree's leaves all sit at the same depth,
 * one child tells whether the next level is the leaves (then only a small tree's are read).
 * Self-contained (no outside names): it runs from its source text.
 */
function walkBtrees(fs: SyncFs, { file, trees, options }: WalkInput): number[] {
  // B-tree page types (https://www.sqlite.org/fileformat2.html#b_tree_pages).
  const INDEX_INTERIOR = 0x02;
  const TABLE_INTERIOR = 0x05;
  const INDEX_LEAF = 0x0a;
  const TABLE_LEAF = 0x0d;
  const fd = fs.openSync(file, "r");
  const read: number[] = [];
  const seen = new Set<number>();
  const readPage = (page: number): Buffer | undefined => {
    if (seen.has(page) || page < 2 || page > pageCount || read.length >= options.maxPages) return undefined;
    seen.add(page);
    read.push(page);
    const buffer = Buffer.alloc(options.pageSize);
    fs.readSync(fd, buffer, 0, options.pageSize, (page - 1) * options.pageSize);
    return buffer;
  };
  // The child page numbers of an interior page; none for a leaf or what is not a b-tree page.
  const childrenOf = (page: Buffer | undefined): number[] => {
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
  };
  const pageCount = Math.floor(fs.fstatSync(fd).size / options.pageSize);
  try {
    for (const tree of trees) {
      let level = [tree.root];
      while (level.length > 0 && read.length < options.maxPages) {
        const children = level.flatMap((page) => childrenOf(readPage(page)));
        if (children.length === 0) break;
        if (!tree.leaves) {
          const probe = readPage(children[0]!);
          if (probe !== undefined && (probe[0] === TABLE_LEAF || probe[0] === INDEX_LEAF)) break;
        }
        level = children;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return read;
}
