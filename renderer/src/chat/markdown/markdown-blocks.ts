/**
 * Splits Markdown into top-level blocks at blank lines outside fenced code, so a streaming reply
 * re-parses only its last block per frame: the blocks before it are final and stay memoized.
 */
import { piecesSince, type StreamedText } from "../../stores/chat/streamed-text.js";

const fenceMarker = /^ {0,3}(`{3,}|~{3,})/;

export function splitMarkdownBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let openFence: string | null = null;
  for (const line of text.split("\n")) {
    const marker = fenceMarker.exec(line)?.[1];
    if (marker) {
      if (openFence === null) openFence = marker;
      else if (marker[0] === openFence[0] && marker.length >= openFence.length) openFence = null;
    }
    if (openFence === null && line.trim() === "" && !marker) {
      if (current.length) blocks.push(current.join("\n"));
      current = [];
      continue;
    }
    current.push(line);
  }
  if (current.length) blocks.push(current.join("\n"));
  return blocks;
}

/**
 * `splitMarkdownBlocks` for a text that only grows (a streaming reply): blocks a blank line has
 * closed are kept, and each call scans only the block still open plus the new text, so a frame
 * costs the size of the new text, not of the whole reply. Given the reply as the pieces it came in
 * (`splitStreamed`), it never reads the whole text either. A text that is not an extension of the
 * last one (an edit, another message) is split afresh.
 */
export class GrowingBlockSplitter {
  /** All the text split so far: only appended to while the text grows (never read, never copied). */
  private text = "";
  private closed: string[] = [];
  /** The text from the start of the block still open: the only part scanned again. */
  private tail = "";
  /** The fence open where the tail starts. */
  private tailFence: string | null = null;
  private footnotes = false;
  /** The streamed state split last (null: the text came whole). */
  private streamedAt: StreamedText | null = null;

  split(text: string): SplitBlocks {
    this.streamedAt = null;
    // Not `startsWith`: V8 compares that character by character; comparing equal strings is a
    // memory compare.
    if (text.length < this.text.length || text.slice(0, this.text.length) !== this.text) this.reset();
    return this.append(text.slice(this.text.length));
  }

  /** The same as `split(text)`, where `streamed` holds the same text in pieces. */
  splitStreamed(text: string, streamed: StreamedText): SplitBlocks {
    const added =
      this.streamedAt !== null || this.text === "" ? piecesSince(streamed, this.streamedAt) : null;
    // The pieces must make up the text (its length is known without reading it); else split it whole.
    const split =
      added && this.text.length + lengthOf(added) === text.length
        ? this.append(added.join(""))
        : this.split(text);
    this.streamedAt = streamed;
    return split;
  }

  private append(added: string): SplitBlocks {
    // Footnote definitions start a line: look again from the start of the tail's last line.
    const lineStart = this.tail.lastIndexOf("\n") + 1;
    this.text += added;
    this.tail += added;
    this.footnotes ||= hasFootnotes(this.tail.slice(lineStart));
    let current: string[] = [];
    let fence = this.tailFence;
    let offset = 0;
    let blockStart = 0;
    let fenceAtBlockStart = fence;
    for (const line of this.tail.split("\n")) {
      const lineEnd = offset + line.length + 1;
      const marker = fenceMarker.exec(line)?.[1];
      if (marker) {
        if (fence === null) fence = marker;
        else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      }
      if (fence === null && line.trim() === "" && !marker) {
        // A blank line closes the block only once it is complete, i.e. followed by more text.
        if (lineEnd <= this.tail.length) {
          if (current.length) this.closed.push(current.join("\n"));
          current = [];
          blockStart = lineEnd;
          fenceAtBlockStart = fence;
        }
      } else current.push(line);
      offset = lineEnd;
    }
    this.tail = this.tail.slice(blockStart);
    this.tailFence = fenceAtBlockStart;
    const open = current.length ? [current.join("\n")] : [];
    return { blocks: [...this.closed, ...open], hasFootnotes: this.footnotes };
  }

  private reset(): void {
    this.text = "";
    this.closed = [];
    this.tail = "";
    this.tailFence = null;
    this.footnotes = false;
  }
}

const lengthOf = (pieces: readonly string[]): number => pieces.reduce((sum, piece) => sum + piece.length, 0);

export interface SplitBlocks {
  blocks: string[];
  hasFootnotes: boolean;
}

/** Whether the text defines a footnote (`[^1]: …`). */
export function hasFootnotes(text: string): boolean {
  return /^ {0,3}\[\^[^\]\s]+\]:/m.test(text);
}
