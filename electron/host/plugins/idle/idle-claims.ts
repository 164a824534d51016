/**
 * Claims that keep one idle task from running twice at once, even across app processes on the
 * same data home, and that survive a crash (docs/contract.md §9.4): `<home>/run/idle-claims/<plugin>/<task>.json`
 * holds the owner's pid and host instance. A claim whose process is gone (or that a previous host
 * in this same process left behind) is taken over. The folder is outside the plugin data folders,
 * which plugins can write.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export interface ClaimOwner {
  pid: number;
  /** Tells apart two hosts in one process (a host closed and opened again). */
  instance: string;
  claimedAt: string;
}

export interface Claim {
  /** Removes the claim file if it is still ours. */
  release(): void;
}

/** Whether a process with this pid runs (EPERM: it does, under another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function claimsDir(home: string): string {
  return path.join(home, "run", "idle-claims");
}

const sameOwner = (a: ClaimOwner | null, b: ClaimOwner | null) =>
  a !== null && b !== null && a.pid === b.pid && a.instance === b.instance && a.claimedAt === b.claimedAt;

export class IdleClaims {
  readonly instance = randomUUID();

  constructor(
    private readonly dir: string,
    private readonly now: () => number,
    private readonly alive: (pid: number) => boolean = processAlive,
  ) {}

  file(pluginId: string, task: string): string {
    return path.join(this.dir, pluginId, `${task}.json`);
  }

  /** Who holds the claim now, if anyone (an unreadable file reads as nobody's). */
  holder(pluginId: string, task: string): ClaimOwner | null {
    return readOwner(this.file(pluginId, task));
  }

  /** Takes the claim, taking over a stale one; null when a live process holds it. */
  tryClaim(pluginId: string, task: string): Claim | null {
    const file = this.file(pluginId, task);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const owner: ClaimOwner = {
      pid: process.pid,
      instance: this.instance,
      claimedAt: new Date(this.now()).toISOString(),
    };
    for (let attempt = 0; attempt < 2; attempt++) {
      if (this.create(file, owner)) return { release: () => release(file, owner) };
      const held = readOwner(file);
      if (held && !this.stale(held)) return null;
      if (!takeAway(file, held)) return null;
    }
    return null;
  }

  private stale(owner: ClaimOwner): boolean {
    if (owner.pid === process.pid) return owner.instance !== this.instance;
    return !this.alive(owner.pid);
  }

  /** Writes a temp file and links it in place: the claim appears whole or not at all. */
  private create(file: string, owner: ClaimOwner): boolean {
    const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(owner), { mode: 0o600 });
    try {
      fs.linkSync(temp, file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    } finally {
      fs.rmSync(temp, { force: true });
    }
  }
}

function readOwner(file: string): ClaimOwner | null {
  try {
    const value = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<ClaimOwner>;
    if (typeof value.pid !== "number" || typeof value.instance !== "string") return null;
    return { pid: value.pid, instance: value.instance, claimedAt: String(value.claimedAt ?? "") };
  } catch {
    return null;
  }
}

/**
 * Moves a stale claim aside. Another process may have taken it over in between: if what moved is
 * not the stale claim we read, it goes back and we leave the task to that process.
 */
function takeAway(file: string, stale: ClaimOwner | null): boolean {
  const aside = `${file}.${process.pid}.${randomUUID()}.stale`;
  try {
    fs.renameSync(file, aside);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT"; // gone already: try to create it
  }
  const moved = readOwner(aside);
  if (stale === null ? moved === null : sameOwner(moved, stale)) {
    fs.rmSync(aside, { force: true });
    return true;
  }
  try {
    fs.linkSync(aside, file);
  } catch {
    // Someone claimed it meanwhile; theirs stands.
  }
  fs.rmSync(aside, { force: true });
  return false;
}

function release(file: string, owner: ClaimOwner): void {
  if (sameOwner(readOwner(file), owner)) fs.rmSync(file, { force: true });
}
