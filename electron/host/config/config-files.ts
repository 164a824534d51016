import fs from "node:fs";
import path from "node:path";

/** Identity of the file's current content, cheap to take: skips re-parsing an unchanged file. */
export function fileFingerprint(filePath: string): string {
  const stat = fs.statSync(filePath, { throwIfNoEntry: false });
  return stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}` : "absent";
}

export function readTextIfPresent(filePath: string): string | null {
  try {
    return fs.readFileSync(filePath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** `2026-11-29T10-00-00-000Z`: an ISO time with no characters that file systems reject. */
export function timestampForFileName(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/[:.]/g, "-");
}

function freeSiblingPath(candidate: string): string {
  let attempt = candidate;
  for (let n = 2; fs.existsSync(attempt); n++) attempt = `${candidate}-${n}`;
  return attempt;
}

/** Renames the unreadable file out of the way, keeping its bytes; returns where it went. */
export function moveAside(filePath: string, epochMs: number): string {
  const target = freeSiblingPath(`${filePath}.corrupt-${timestampForFileName(epochMs)}`);
  fs.renameSync(filePath, target);
  return target;
}

/** Copies the file before it is rewritten; returns the copy's path. */
export function backUp(filePath: string, epochMs: number): string {
  const target = freeSiblingPath(`${filePath}.bak-${timestampForFileName(epochMs)}`);
  fs.copyFileSync(filePath, target, fs.constants.COPYFILE_EXCL);
  return target;
}

/**
 * The atomic writer leaves `config.yaml.tmp-<digits>` behind when the process is killed
 * mid-write. Old ones are litter; young ones may belong to another running instance.
 */
export function removeStaleTempFiles(filePath: string, nowMs: number, olderThanMs = 60_000): void {
  const dir = path.dirname(filePath);
  const prefix = `${path.basename(filePath)}.tmp-`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !/^\d{10}[0-9a-f]{6}$/.test(name.slice(prefix.length))) continue;
    const full = path.join(dir, name);
    const stat = fs.statSync(full, { throwIfNoEntry: false });
    if (stat && nowMs - stat.mtimeMs > olderThanMs) fs.rmSync(full, { force: true });
  }
}
