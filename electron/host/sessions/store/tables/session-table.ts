import { randomUUID } from "node:crypto";
import type { Database, Statement } from "better-sqlite3";
import type { Clock } from "../../../clock.js";
import type { NewSession, SessionRecord, SessionSnapshot, SessionSummary, TitleState } from "../types.js";

export const DEFAULT_SESSION_TITLE = "New chat";

export type SessionRow = {
  row: number;
  id: string;
  title: string;
  title_state: TitleState;
  created_at: number;
  updated_at: number;
  pinned_at: number | null;
};

export const summaryColumns = "row, id, title, title_state, created_at, updated_at, pinned_at";

/** The sessions table: one row per conversation. Statements are prepared once. */
export class SessionTable {
  private readonly insertStmt: Statement<[string, string, TitleState, string, number, number]>;
  private readonly byIdStmt: Statement<[string], SessionRow>;
  private readonly fullByIdStmt: Statement<[string], SessionRow & { settings_snapshot: string }>;
  private readonly listStmt: Statement<[number, number], SessionRow>;
  private readonly pinnedStmt: Statement<[], SessionRow>;
  private readonly pinStmt: Statement<[number | null, string]>;
  private readonly renameStmt: Statement<[string, TitleState, string]>;
  private readonly titleStateStmt: Statement<[TitleState, string]>;
  private readonly snapshotStmt: Statement<[string, string]>;
  private readonly touchStmt: Statement<[number, string]>;
  private readonly touchRowStmt: Statement<[number, number]>;
  private readonly deleteStmt: Statement<[string]>;
  /** id → row: a session's row never changes, and every write of a turn looks it up. */
  private readonly rows = new Map<string, number>();

  constructor(
    db: Database,
    private readonly clock: Clock,
  ) {
    this.insertStmt = db.prepare(
      `INSERT INTO sessions (id, title, title_state, settings_snapshot, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.byIdStmt = db.prepare(`SELECT ${summaryColumns} FROM sessions WHERE id = ?`);
    this.fullByIdStmt = db.prepare(`SELECT ${summaryColumns}, settings_snapshot FROM sessions WHERE id = ?`);
    // Pinned chats come first (newest pin first), then the rest by activity through its index.
    this.pinnedStmt = db.prepare(
      `SELECT ${summaryColumns} FROM sessions WHERE pinned_at IS NOT NULL ORDER BY pinned_at DESC, row DESC`,
    );
    this.listStmt = db.prepare(
      `SELECT ${summaryColumns} FROM sessions WHERE pinned_at IS NULL
       ORDER BY updated_at DESC, row DESC LIMIT ? OFFSET ?`,
    );
    this.pinStmt = db.prepare("UPDATE sessions SET pinned_at = ? WHERE id = ?");
    this.renameStmt = db.prepare("UPDATE sessions SET title = ?, title_state = ? WHERE id = ?");
    this.titleStateStmt = db.prepare("UPDATE sessions SET title_state = ? WHERE id = ?");
    this.snapshotStmt = db.prepare("UPDATE sessions SET settings_snapshot = ? WHERE id = ?");
    this.touchStmt = db.prepare("UPDATE sessions SET updated_at = max(updated_at, ?) WHERE id = ?");
    this.touchRowStmt = db.prepare("UPDATE sessions SET updated_at = max(updated_at, ?) WHERE row = ?");
    this.deleteStmt = db.prepare("DELETE FROM sessions WHERE id = ?");
  }

  create(input: NewSession): SessionRecord {
    const id = randomUUID();
    const now = this.clock.now();
    const title = input.title?.trim() || DEFAULT_SESSION_TITLE;
    const titleState: TitleState = input.title?.trim() ? "set" : "pending";
    const { lastInsertRowid } = this.insertStmt.run(
      id,
      title,
      titleState,
      JSON.stringify(input.snapshot),
      now,
      now,
    );
    this.rows.set(id, Number(lastInsertRowid));
    return {
      id,
      title,
      titleState,
      createdAt: now,
      updatedAt: now,
      pinned: false,
      snapshot: structuredClone(input.snapshot),
    };
  }

  get(id: string): SessionRecord | undefined {
    const row = this.fullByIdStmt.get(id);
    if (!row) return undefined;
    return { ...toSummary(row), snapshot: JSON.parse(row.settings_snapshot) as SessionSnapshot };
  }

  /** The internal row number that messages and usage point at, or undefined for an unknown id. */
  rowOf(id: string): number | undefined {
    const known = this.rows.get(id);
    if (known !== undefined) return known;
    const row = this.byIdStmt.get(id)?.row;
    if (row !== undefined) this.rows.set(id, row);
    return row;
  }

  /** Pinned chats first, then the others newest-active first; `limit` -1 is all. */
  list(limit: number, offset: number): SessionSummary[] {
    const pinned = this.pinnedStmt.all().slice(offset, limit < 0 ? undefined : offset + limit);
    const restOffset = Math.max(0, offset - this.pinnedStmt.all().length);
    const restLimit = limit < 0 ? -1 : limit - pinned.length;
    const rest = restLimit === 0 ? [] : this.listStmt.all(restLimit, restOffset);
    return [...pinned, ...rest].map(toSummary);
  }

  /** Returns false when no such session exists. Pinning does not change `updated_at`. */
  setPinned(id: string, pinned: boolean): boolean {
    return this.pinStmt.run(pinned ? this.clock.now() : null, id).changes > 0;
  }

  /** Returns false when no such session exists. Renaming does not move the session in the list. */
  rename(id: string, title: string, titleState: TitleState): boolean {
    return this.renameStmt.run(title, titleState, id).changes > 0;
  }

  setTitleState(id: string, titleState: TitleState): boolean {
    return this.titleStateStmt.run(titleState, id).changes > 0;
  }

  /** A person's explicit change to what the session runs with (its model, its own system prompt). */
  setSnapshot(id: string, snapshot: SessionSnapshot): boolean {
    return this.snapshotStmt.run(JSON.stringify(snapshot), id).changes > 0;
  }

  /** Marks activity; `max` keeps updated_at from going backwards if the clock does. */
  touch(id: string): boolean {
    return this.touchStmt.run(this.clock.now(), id).changes > 0;
  }

  touchRow(row: number): void {
    this.touchRowStmt.run(this.clock.now(), row);
  }

  /** Messages and usage rows go with it (ON DELETE CASCADE). */
  delete(id: string): boolean {
    this.rows.delete(id);
    return this.deleteStmt.run(id).changes > 0;
  }
}

export function toSummary(row: SessionRow): SessionSummary {
  return {
    id: row.id,
    title: row.title,
    titleState: row.title_state,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    pinned: row.pinned_at !== null,
  };
}
