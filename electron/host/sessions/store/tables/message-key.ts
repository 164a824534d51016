/**
 * A message's integer row key packs its session and its place in it:
 * `(SESSION_SPAN - sessionRow) * 2^20 + seq`. Why:
 * - a session's messages sit next to each other (a transcript is one range read);
 * - a full-text hit (its rowid is this key) names its session by arithmetic, no lookup per hit;
 * - newer sessions get smaller keys, and FTS5 finds a match at or after a key by reading its
 *   doclists from the start, so the recent chats that search visits first are the cheap ones.
 * Keys stay below 2^53 so JavaScript numbers hold them exactly: at most 2^20 (about a million)
 * messages per session and 2^33 - 1 sessions.
 */
export const MESSAGES_PER_SESSION = 2 ** 20;
const SESSION_SPAN = 2 ** 33;
export const MAX_SESSION_ROW = SESSION_SPAN - 1;

export function messageKey(sessionRow: number, seq: number): number {
  return sessionKeyRange(sessionRow).first + seq;
}

/** The first and last possible keys of a session's messages, inclusive. */
export function sessionKeyRange(sessionRow: number): { first: number; last: number } {
  const first = (SESSION_SPAN - sessionRow) * MESSAGES_PER_SESSION;
  return { first, last: first + MESSAGES_PER_SESSION - 1 };
}

/** The session row a message key belongs to. */
export function sessionRowOfKey(key: number): number {
  return SESSION_SPAN - Math.floor(key / MESSAGES_PER_SESSION);
}
