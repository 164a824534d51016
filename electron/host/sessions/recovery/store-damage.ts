/**
 * Looks for damage in the session store file before it is opened for writing, so a damaged file is
 * moved aside whole (store-recovery.ts) instead of being migrated or written into. Cheap checks run
 * on every file (the header, a truncated end); SQLite's `quick_check`, which reads every page,
 * runs on files up to a size bound so a large store does not slow every start (and in a worker
 * thread where the caller can wait for it: `findStoreDamageOffThread`).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";

/** `quick_check` reads ~6 ms per MB on this class of machine: 32 MB stays near 200 ms. */
export const DEFAULT_INTEGRITY_CHECK_MAX_BYTES = 32 * 1024 * 1024;

const SQLITE_MAGIC = Buffer.from("SQLite format 3\0", "latin1");
const HEADER_BYTES = 100;

/** What is wrong with the file, in words for a notice; null when it looks healthy (or is absent). */
export function findStoreDamage(file: string, integrityCheckMaxBytes: number): string | null {
  const found = cheapChecks(file, integrityCheckMaxBytes);
  return found.checkPages ? quickCheck(file) : found.damage;
}

/**
 * `findStoreDamage`, with SQLite's page check (the costly part: ~6 ms per MB) run in a worker
 * thread, so the calling thread carries on meanwhile (web mode loads the host's code beside it).
 * A worker that cannot run leaves the check to this thread: the file is never left unchecked.
 */
export async function findStoreDamageOffThread(
  file: string,
  integrityCheckMaxBytes: number,
): Promise<string | null> {
  const found = cheapChecks(file, integrityCheckMaxBytes);
  if (!found.checkPages) return found.damage;
  try {
    return judgeQuickCheck(await quickCheckInWorker(file));
  } catch {
    return quickCheck(file);
  }
}

/** The checks that read the header only; `checkPages` when the file calls for SQLite's page check. */
function cheapChecks(
  file: string,
  integrityCheckMaxBytes: number,
): { damage: string | null; checkPages: boolean } {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  // SQLite treats a missing or empty file as a new database.
  if (!stat || stat.size === 0) return { damage: null, checkPages: false };
  const header = readHeader(file);
  if (header.length < HEADER_BYTES || !header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) {
    return {
      damage: "it is not a SQLite database: its first bytes are not SQLite's header",
      checkPages: false,
    };
  }
  const truncated = truncation(header, stat.size);
  if (truncated) return { damage: truncated, checkPages: false };
  return { damage: null, checkPages: stat.size <= integrityCheckMaxBytes };
}

function readHeader(file: string): Buffer {
  const fd = fs.openSync(file, "r");
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const read = fs.readSync(fd, buffer, 0, HEADER_BYTES, 0);
    return buffer.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}

/** The header counts the file's pages (when its "valid for" stamp matches); fewer bytes: cut short. */
function truncation(header: Buffer, size: number): string | null {
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
  const pages = header.readUInt32BE(28);
  const countIsValid = header.readUInt32BE(92) === header.readUInt32BE(24);
  if (!countIsValid || pageSize < 512 || pages === 0) return null;
  if (pages * pageSize <= size) return null;
  return `it is truncated: its header counts ${pages} pages of ${pageSize} bytes, but the file holds only ${size} bytes`;
}

/** What SQLite's page check said: its findings, or the error that stopped it. */
type QuickCheckOutcome = { findings: string[] } | { error: { code: string | null; message: string } };

/** SQLite's own page-by-page check, read-only; a check that cannot run is not damage. */
function quickCheck(file: string): string | null {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const rows = db.pragma("quick_check(5)") as { quick_check: string }[];
    return judgeQuickCheck({ findings: rows.map((row) => row.quick_check) });
  } catch (error) {
    const code = error instanceof Database.SqliteError ? error.code : null;
    return judgeQuickCheck({
      error: { code, message: error instanceof Error ? error.message : String(error) },
    });
  } finally {
    db?.close();
  }
}

function judgeQuickCheck(outcome: QuickCheckOutcome): string | null {
  if ("error" in outcome) {
    const { code, message } = outcome.error;
    return code !== null && isDamageCode(code) ? `SQLite could not read it (${message})` : null;
  }
  const findings = outcome.findings.filter((finding) => finding !== "ok");
  return findings.length ? `SQLite's integrity check found damaged pages (${findings.join("; ")})` : null;
}

/**
 * `quickCheck` in a worker thread. The worker is sent as source text (an eval worker needs no file
 * of its own in the bundled app) and loads the same SQLite binding, found from here.
 */
function quickCheckInWorker(file: string): Promise<QuickCheckOutcome> {
  const source = `
    const { parentPort, workerData } = require("node:worker_threads");
    const Database = require(workerData.driver);
    let db;
    try {
      db = new Database(workerData.file, { readonly: true, fileMustExist: true });
      parentPort.postMessage({ findings: db.pragma("quick_check(5)").map((row) => row.quick_check) });
    } catch (error) {
      const code = error instanceof Database.SqliteError ? error.code : null;
      parentPort.postMessage({ error: { code, message: String(error && error.message) } });
    } finally {
      if (db) db.close();
    }`;
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: { file, driver } });
    worker.once("message", (outcome: QuickCheckOutcome) => resolve(outcome));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`The store check stopped early (exit code ${code}).`)));
  });
}

export function isDamageCode(code: string): boolean {
  return code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT");
}
