/**
 * Looks for damage in the session store file before it is opened for writing, so a damaged file is
 * moved aside whole (store-recovery.ts) instead of being migrated or written into. Cheap checks run
 * on every file (the header, a truncated end); SQLite's `quick_check`, which reads every page,
 * runs on files up to a size bound so a large store does not slow every start.
 */
import fs from "node:fs";
import Database from "better-sqlite3";

/** `quick_check` reads ~6 ms per MB on this class of machine: 32 MB stays near 200 ms. */
export const DEFAULT_INTEGRITY_CHECK_MAX_BYTES = 32 * 1024 * 1024;

const SQLITE_MAGIC = Buffer.from("SQLite format 3\0", "latin1");
const HEADER_BYTES = 100;

/** What is wrong with the file, in words for a notice; null when it looks healthy (or is absent). */
export function findStoreDamage(file: string, integrityCheckMaxBytes: number): string | null {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  // SQLite treats a missing or empty file as a new database.
  if (!stat || stat.size === 0) return null;
  const header = readHeader(file);
  if (header.length < HEADER_BYTES || !header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) {
    return "it is not a SQLite database: its first bytes are not SQLite's header";
  }
  const truncated = truncation(header, stat.size);
  if (truncated) return truncated;
  if (stat.size > integrityCheckMaxBytes) return null;
  return quickCheck(file);
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

/** SQLite's own page-by-page check, read-only; a check that cannot run is not damage. */
function quickCheck(file: string): string | null {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const rows = db.pragma("quick_check(5)") as { quick_check: string }[];
    const findings = rows.map((row) => row.quick_check).filter((finding) => finding !== "ok");
    return findings.length ? `SQLite's integrity check found damaged pages (${findings.join("; ")})` : null;
  } catch (error) {
    if (error instanceof Database.SqliteError && isDamageCode(error.code)) {
      return `SQLite could not read it (${error.message})`;
    }
    return null;
  } finally {
    db?.close();
  }
}

export function isDamageCode(code: string): boolean {
  return code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT");
}
