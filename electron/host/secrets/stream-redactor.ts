/**
 * Redacts a text that arrives in pieces (a streamed reply) without ever letting a secret out in
 * two halves. A secret never contains whitespace, so a trailing word that could still become one
 * (it holds or ends in the start of a key shape or of a known key, or looks like an assignment or
 * a URL) is held until its word ends; an ordinary word goes out at once, so the first token is not
 * delayed. A word that introduces a secret ("Bearer", "api_key:") is held with what follows it,
 * and an unterminated private-key block until it ends. What is released is the redacted text, so
 * the sum of the releases is the one redacted reply everyone sees and stores.
 */
import { MIN_KNOWN_KEY_LENGTH, type Redact } from "./redaction.js";

/** A trailing word longer than this is no secret we know of; let it out rather than stall. */
const MAX_HELD_WORD = 1024;
/** A private key block longer than this is not waited for any more; the rest is masked anyway. */
const MAX_HELD_BLOCK = 16 * 1024;
/** A secret's introducer at the end of the releasable text: keep it with what follows. */
const INTRODUCER_AT_END =
  /(?:\b(?:Bearer|Basic|Authorization|(?:x-)?api[_-]?key|access[_-]?token|refresh[_-]?token|client[_-]?secret|password|passwd|aws_secret_access_key)["']?\s*[:=]?\s*["']?)$/i;
const BLOCK_START = "-----BEGIN";
const BLOCK_END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----/;
/** Beginnings of the key shapes redaction.ts knows, and of the words that introduce a secret. */
const TRIGGERS = [
  "sk-",
  "ghp_",
  "gho_",
  "ghu_",
  "ghs_",
  "ghr_",
  "github_pat_",
  "AKIA",
  "ASIA",
  BLOCK_START,
  "bearer",
  "basic",
  "authorization",
  "aws_secret_access_key",
  "api_key",
  "api-key",
  "apikey",
  "x-api-key",
  "access_token",
  "access-token",
  "refresh_token",
  "refresh-token",
  "client_secret",
  "client-secret",
  "password",
  "passwd",
];
/** Matched against the lower-cased word: lower-cased once, not per piece. */
const LOWER_TRIGGERS = TRIGGERS.map((trigger) => trigger.toLowerCase());
/** Characters that make a word an assignment, a URL or a quoted value: hold it to its end. */
const HOLD_CHARS = /[:=@/"']/;

export class StreamRedactor {
  private pending = "";

  constructor(
    private readonly redact: Redact,
    /** The vault's keys: a word ending in the start of one is held. */
    private readonly knownKeys: () => readonly string[] = () => [],
  ) {}

  /** Adds a piece; returns the redacted text that is safe to show now (maybe ""). */
  push(piece: string): string {
    this.pending += piece;
    const cut = this.releasableLength();
    if (cut === 0) return "";
    const out = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    return this.redact(out, { force: true });
  }

  /** The end of the stream: everything still held, redacted. */
  flush(): string {
    const out = this.pending;
    this.pending = "";
    return out ? this.redact(out, { force: true }) : "";
  }

  private releasableLength(): number {
    const text = this.pending;
    let cut = lastWhitespaceEnd(text);
    const block = text.lastIndexOf(BLOCK_START);
    if (block >= 0) {
      const end = BLOCK_END.exec(text.slice(block));
      if (!end) return text.length - block < MAX_HELD_BLOCK ? this.wordBoundaryBefore(block) : text.length;
      // The END line has spaces in it: never cut inside it.
      cut = Math.max(cut, block + end.index + end[0].length);
    }
    if (text.length - cut > MAX_HELD_WORD) return text.length;
    // Hold back an introducer so "Bearer " and its token are redacted together.
    const introducer = INTRODUCER_AT_END.exec(text.slice(0, cut));
    if (introducer) return this.wordBoundaryBefore(introducer.index);
    if (cut < text.length && this.harmless(text.slice(cut))) return text.length;
    return cut;
  }

  /** A trailing word that cannot be, nor grow into, a secret or its introducer. */
  private harmless(word: string): boolean {
    if (HOLD_CHARS.test(word)) return false;
    const lower = word.toLowerCase();
    for (const trigger of LOWER_TRIGGERS) {
      if (lower.includes(trigger) || endsWithStartOf(lower, trigger)) return false;
    }
    for (const key of this.knownKeys()) {
      if (
        key.length >= MIN_KNOWN_KEY_LENGTH &&
        (word.includes(key.slice(0, 4)) || endsWithStartOf(word, key))
      ) {
        return false;
      }
    }
    return true;
  }

  private wordBoundaryBefore(index: number): number {
    return lastWhitespaceEnd(this.pending.slice(0, index));
  }
}

/** The index just after the last whitespace character, or 0 when there is none. */
function lastWhitespaceEnd(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) {
    if (/\s/.test(text[i]!)) return i + 1;
  }
  return 0;
}

/** True when some suffix of `text` is a (non-empty) prefix of `start`. */
function endsWithStartOf(text: string, start: string): boolean {
  for (let length = Math.min(text.length, start.length); length > 0; length--) {
    if (start.startsWith(text.slice(text.length - length))) return true;
  }
  return false;
}
