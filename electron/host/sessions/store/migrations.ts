import type { Database } from "better-sqlite3";
import { messageChunksSchema } from "./tables/message-chunks.js";

/**
 * The store's schema, as an ordered list of steps. `PRAGMA user_version` records the last step
 * applied. A released step is never edited: change the schema by appending a new one.
 */
export type Migration = {
  version: number;
  description: string;
  up: (db: Database) => void;
};

// Only finished person and assistant text is searchable: tool output and notices are noise, and a
// reply still streaming is indexed once it ends, so the ~100 ms deltas never touch the index.
const initialSchema = `
CREATE TABLE sessions (
  row               INTEGER PRIMARY KEY AUTOINCREMENT,
  id                TEXT    NOT NULL UNIQUE,
  title             TEXT    NOT NULL,
  title_state       TEXT    NOT NULL CHECK (title_state IN ('pending', 'set', 'failed')),
  settings_snapshot TEXT    NOT NULL CHECK (json_valid(settings_snapshot)),
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL
);
CREATE INDEX sessions_by_updated ON sessions (updated_at DESC, row DESC);

-- row packs the session and seq (see message-key.ts)
CREATE TABLE messages (
  row         INTEGER PRIMARY KEY,
  id          TEXT    NOT NULL UNIQUE,
  session_row INTEGER NOT NULL REFERENCES sessions (row) ON DELETE CASCADE,
  seq         INTEGER NOT NULL,
  turn_id     TEXT,
  role        TEXT    NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'system', 'notice')),
  content     TEXT    NOT NULL,
  status      TEXT    NOT NULL CHECK (status IN ('complete', 'streaming', 'stopped', 'error', 'interrupted')),
  meta        TEXT    NOT NULL CHECK (json_valid(meta)),
  created_at  INTEGER NOT NULL
);
CREATE INDEX messages_by_session ON messages (session_row);
CREATE INDEX messages_streaming ON messages (row) WHERE status = 'streaming';

CREATE TABLE usage (
  row                INTEGER PRIMARY KEY,
  session_row        INTEGER NOT NULL REFERENCES sessions (row) ON DELETE CASCADE,
  category           TEXT    NOT NULL,
  input_tokens       INTEGER NOT NULL CHECK (input_tokens >= 0),
  output_tokens      INTEGER NOT NULL CHECK (output_tokens >= 0),
  cache_read_tokens  INTEGER NOT NULL CHECK (cache_read_tokens >= 0),
  cache_write_tokens INTEGER NOT NULL CHECK (cache_write_tokens >= 0),
  cost_usd           REAL,
  created_at         INTEGER NOT NULL
);
CREATE INDEX usage_by_session ON usage (session_row);

CREATE VIRTUAL TABLE messages_fts USING fts5 (
  content, content = 'messages', content_rowid = 'row',
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
CREATE VIRTUAL TABLE sessions_fts USING fts5 (
  title, content = 'sessions', content_rowid = 'row',
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);

-- The index's vocabulary, to turn a long typed prefix into the whole words it completes to.
CREATE VIRTUAL TABLE messages_vocab USING fts5vocab (messages_fts, 'row');

-- New messages are indexed by MessageTable.append, not by an AFTER INSERT trigger: a trigger
-- runs in a statement savepoint, at which FTS5 flushes its pending index, and that made bulk
-- appends about 3x slower. Updates and deletes (rare) stay with triggers.
CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, status ON messages
WHEN NOT (old.status = 'streaming' AND new.status = 'streaming')
BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, content)
    SELECT 'delete', old.row, old.content WHERE old.role IN ('user', 'assistant') AND old.status <> 'streaming';
  INSERT INTO messages_fts (rowid, content)
    SELECT new.row, new.content WHERE new.role IN ('user', 'assistant') AND new.status <> 'streaming';
END;

CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages
WHEN old.role IN ('user', 'assistant') AND old.status <> 'streaming'
BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.row, old.content);
END;

CREATE TRIGGER sessions_fts_insert AFTER INSERT ON sessions
BEGIN
  INSERT INTO sessions_fts (rowid, title) VALUES (new.row, new.title);
END;

CREATE TRIGGER sessions_fts_update AFTER UPDATE OF title ON sessions
BEGIN
  INSERT INTO sessions_fts (sessions_fts, rowid, title) VALUES ('delete', old.row, old.title);
  INSERT INTO sessions_fts (rowid, title) VALUES (new.row, new.title);
END;

CREATE TRIGGER sessions_fts_delete AFTER DELETE ON sessions
BEGIN
  INSERT INTO sessions_fts (sessions_fts, rowid, title) VALUES ('delete', old.row, old.title);
END;
`;

// The words of messages_fts (see search-terms.ts). The update trigger is the one of version 1 plus
// one line: each message it indexes is queued for its words. Filling the table reads the whole
// index once (about a third of the file).
const searchTermsSchema = `
CREATE TABLE messages_terms (term TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE messages_terms_pending (row INTEGER PRIMARY KEY);

DROP TRIGGER messages_fts_update;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, status ON messages
WHEN NOT (old.status = 'streaming' AND new.status = 'streaming')
BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, content)
    SELECT 'delete', old.row, old.content WHERE old.role IN ('user', 'assistant') AND old.status <> 'streaming';
  INSERT INTO messages_fts (rowid, content)
    SELECT new.row, new.content WHERE new.role IN ('user', 'assistant') AND new.status <> 'streaming';
  INSERT OR IGNORE INTO messages_terms_pending (row)
    SELECT new.row WHERE new.role IN ('user', 'assistant') AND new.status <> 'streaming';
END;

INSERT INTO messages_terms (term) SELECT term FROM messages_vocab;
`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: "sessions, messages, usage ledger and full-text search",
    up: (db) => db.exec(initialSchema),
  },
  {
    version: 2,
    description: "find messages still waiting for their turn without a full scan at open",
    up: (db) =>
      db.exec(
        "CREATE INDEX messages_pending ON messages (row) WHERE json_extract(meta, '$.pending') IS NOT NULL",
      ),
  },
  {
    version: 3,
    description: "pinned chats: when a chat was pinned (null when it is not)",
    up: (db) =>
      db.exec(`ALTER TABLE sessions ADD COLUMN pinned_at INTEGER;
CREATE INDEX sessions_pinned ON sessions (pinned_at DESC) WHERE pinned_at IS NOT NULL;`),
  },
  {
    version: 4,
    description: "the message index's words in a plain table, so a typed prefix completes in one short read",
    up: (db) => db.exec(searchTermsSchema),
  },
  {
    version: 5,
    description: "a streaming reply's text as appended chunks, folded into its row when it ends",
    up: (db) => db.exec(messageChunksSchema),
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS.length;

export function readSchemaVersion(db: Database): number {
  return db.pragma("user_version", { simple: true }) as number;
}

/**
 * Applies the steps newer than the file's version, each in its own write transaction together
 * with its version bump, so a failed step leaves the file at the previous version. The version
 * is re-read inside the transaction in case another process migrated meanwhile.
 */
export function migrate(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
): { from: number; to: number } {
  assertOrdered(migrations);
  const from = readSchemaVersion(db);
  for (const migration of migrations) {
    if (migration.version <= from) continue;
    const apply = db.transaction(() => {
      if (readSchemaVersion(db) >= migration.version) return;
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    });
    apply.immediate();
  }
  return { from, to: readSchemaVersion(db) };
}

function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `Session store migration "${migration.description}" has version ${migration.version}, ` +
          `expected ${index + 1}: versions must run 1, 2, 3… in list order.`,
      );
    }
  });
}
