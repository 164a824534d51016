/**
 * A damaged session store at start: the file (with its write-ahead log, which holds committed
 * writes) is moved aside, never deleted, and a fresh store is filled with what can still be read
 * (store-salvage.ts). The result becomes a notice naming where the old file went.
 */
import fs from "node:fs";
import path from "node:path";
import { salvageInto, type SalvageCounts } from "./store-salvage.js";

export type StoreRecovery = SalvageCounts & {
  /** What was wrong, in words. */
  damage: string;
  /** Where the damaged file now is (its `-wal`/`-shm` sit next to it under the same name). */
  movedTo: string;
};

/** SQLite's companions of a database file, which must travel with it. */
const COMPANIONS = ["-wal", "-shm"] as const;

export function recoverDamagedStore(file: string, nowMs: number, damage: string): StoreRecovery {
  const movedTo = moveStoreAside(file, "corrupt", nowMs);
  const counts = salvageInto(movedTo, file);
  return { ...counts, damage, movedTo };
}

/**
 * Renames the store and its companions to `<file>.<label>-<time>`; returns the new name (of the
 * main file). The log goes first: were the main file moved first and this step failed, a new
 * store at the old name would replay the old log into itself.
 */
export function moveStoreAside(file: string, label: string, nowMs: number): string {
  const movedTo = freeAsidePath(`${file}.${label}-${fileTimestamp(nowMs)}`);
  for (const suffix of COMPANIONS) {
    if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, movedTo + suffix);
  }
  if (fs.existsSync(file)) fs.renameSync(file, movedTo);
  return movedTo;
}

/** The notice shown on every screen (host.info's notices) after a recovery. */
export function recoveryNotice(recovery: StoreRecovery): string {
  const kept =
    recovery.sessions + recovery.messages === 0
      ? "nothing in it could be read, so chats start empty"
      : `${plural(recovery.sessions, "chat")} and ${plural(recovery.messages, "message")} that could be read were kept`;
  return (
    `The session store was damaged (${recovery.damage}). It was moved aside to ${recovery.movedTo} ` +
    `and not deleted; ${kept}. Keep that file if you want to try a SQLite recovery tool on it.`
  );
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** `2026-11-29T10-00-00-000Z`: an ISO time with no characters that file systems reject. */
function fileTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/[:.]/g, "-");
}

function freeAsidePath(candidate: string): string {
  const taken = (p: string) => [p, ...COMPANIONS.map((s) => p + s)].some((f) => fs.existsSync(f));
  let attempt = candidate;
  for (let n = 2; taken(attempt); n++) attempt = `${candidate}-${n}`;
  return path.resolve(attempt);
}
