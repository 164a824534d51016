/**
 * Redacts a text that arrives in pieces (a streamed reply) without ever letting a secret out in
 * two halves. A secret never contains whitespace, so text is released only up to the last
 * whitespace, and a word that introduces a secret ("Bearer", "api_key:") is held with what
 * follows it. An unterminated private-key block is held until it ends. What is released is the
 * redacted text, so the sum of the releases is the one redacted reply everyone sees and stores.
 */
import type { Redact } from "./redaction.js";

/** A trailing word longer than this is no secret we know of; let it out rather than stall. */
const MAX_HELD_WORD = 1024;
/** A private key block longer than this is not waited for any more; the rest is masked anyway. */
const MAX_HELD_BLOCK = 16 * 1024;
/** A secret's introducer at the end of the releasable text: keep it with what follows. */
const INTRODUCER_AT_END =
  /(?:\b(?:Bearer|Basic|Authorization|(?:x-)?api[_-]?key|access[_-]?token|refresh[_-]?token|client[_-]?secret|password|passwd|aws_secret_access_key)["']?\s*[:=]?\s*["']?)$/i;
const BLOCK_START = "-----BEGIN";
const BLOCK_END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----/;

export class StreamRedactor {
  private pending = "";

  constructor(private readonly redact: Redact) {}

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
    if (introducer) cut = this.wordBoundaryBefore(introducer.index);
    return cut;
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
