import path from "node:path";
import Database from "better-sqlite3";

export type SessionStoreErrorReason =
  /** The file is not a SQLite database, or its pages are damaged. */
  | "store_corrupt"
  /** Another connection holds the lock longer than the busy timeout. */
  | "store_locked"
  /** The file was written by a newer schema than this build knows. */
  | "store_too_new"
  /** The file cannot be opened or written (missing folder, permissions, I/O error). */
  | "store_unavailable"
  /** The disk holding the file is full: nothing was written by the failed call. */
  | "store_full"
  /** The store was used after `close()`. */
  | "store_closed"
  /** No session or message with the given id. */
  | "not_found";

/** Every failure of the session store, with a stable `reason` and a message that says what to do. */
export class SessionStoreError extends Error {
  override readonly name = "SessionStoreError";

  constructor(
    readonly reason: SessionStoreErrorReason,
    message: string,
    readonly file: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  static corrupt(file: string, detail: string, cause?: unknown): SessionStoreError {
    const aside = `${path.basename(file)}.corrupt`;
    return new SessionStoreError(
      "store_corrupt",
      `The session store ${file} is damaged or is not a SQLite database (${detail}). ` +
        `It was left untouched. Quit Hermes Desktop and move the file aside (for example rename it to ${aside}); ` +
        `the next start creates an empty store, and a SQLite recovery tool may restore the old one.`,
      file,
      { cause },
    );
  }

  /** Damage met in use (the handle moves the file aside and keeps what can be read, before the next use). */
  static damagedInUse(file: string, detail: string, cause?: unknown): SessionStoreError {
    return new SessionStoreError(
      "store_corrupt",
      `The session store ${file} turned out to be damaged (${detail}). Hermes Desktop is moving it aside ` +
        `(it is not deleted) and keeping every chat and message that can still be read; try again in a moment. ` +
        `A notice will say where the damaged file went.`,
      file,
      { cause },
    );
  }

  static locked(file: string, cause?: unknown): SessionStoreError {
    return new SessionStoreError(
      "store_locked",
      `The session store ${file} is locked by another program (another Hermes Desktop window, ` +
        `or a tool that has the file open). Close that program and try again; nothing already saved was lost.`,
      file,
      { cause },
    );
  }

  static tooNew(file: string, found: number, known: number): SessionStoreError {
    return new SessionStoreError(
      "store_too_new",
      `The session store ${file} has schema version ${found}, but this Hermes Desktop knows versions up to ${known}: ` +
        `it was written by a newer version. It was left untouched. Update Hermes Desktop, ` +
        `or move the file aside to start with an empty store.`,
      file,
    );
  }

  static unavailable(file: string, detail: string, cause?: unknown): SessionStoreError {
    return new SessionStoreError(
      "store_unavailable",
      `The session store ${file} could not be opened or written (${detail}). ` +
        `Check that its folder exists and is writable and that the disk is not full, then try again.`,
      file,
      { cause },
    );
  }

  static diskFull(file: string, cause?: unknown): SessionStoreError {
    return new SessionStoreError(
      "store_full",
      `The disk holding the session store ${file} is full, so the latest text could not be saved. ` +
        `Everything saved before is kept, and a reply cut short is saved as far as it came once there is room. ` +
        `Free some space on that disk, then send again.`,
      file,
      { cause },
    );
  }

  static closed(file: string): SessionStoreError {
    return new SessionStoreError(
      "store_closed",
      `The session store ${file} was closed; open a new SessionStore to keep using it.`,
      file,
    );
  }

  static notFound(file: string, what: "session" | "message", id: string): SessionStoreError {
    return new SessionStoreError(
      "not_found",
      `No ${what} with id ${id} exists (it may have been deleted).`,
      file,
    );
  }
}

/**
 * Maps SQLite's failure codes to the store's reasons. Anything else (a constraint violation is a
 * bug in the caller) is returned unchanged.
 */
export function translateSqliteError(error: unknown, file: string): unknown {
  if (error instanceof SessionStoreError) return error;
  if (error instanceof Database.SqliteError) {
    const code = error.code;
    if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")) {
      return SessionStoreError.corrupt(file, error.message, error);
    }
    if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
      return SessionStoreError.locked(file, error);
    }
    if (code === "SQLITE_FULL" || (code === "SQLITE_IOERR_WRITE" && /ENOSPC|full/i.test(error.message))) {
      return SessionStoreError.diskFull(file, error);
    }
    if (
      code.startsWith("SQLITE_CANTOPEN") ||
      code.startsWith("SQLITE_READONLY") ||
      code.startsWith("SQLITE_IOERR") ||
      code === "SQLITE_PERM"
    ) {
      return SessionStoreError.unavailable(file, error.message, error);
    }
    return error;
  }
  // better-sqlite3 raises a TypeError of its own when the folder of a new file does not exist.
  if (error instanceof TypeError && /Cannot open database/.test(error.message)) {
    return SessionStoreError.unavailable(file, error.message, error);
  }
  return error;
}
