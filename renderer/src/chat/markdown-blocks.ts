/**
 * Splits Markdown into top-level blocks at blank lines outside fenced code, so a streaming reply
 * re-parses only its last block per frame: the blocks before it are final and stay memoized.
 */
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
 * closed are kept, and each call scans only from the start of the block still open, so a frame
 * costs the size of the new text, not of the whole reply. A text that is not an extension of the
 * last one (an edit, another message) is split afresh.
 */
export class GrowingBlockSplitter {
  private text = "";
  private closed: string[] = [];
  /** Where the open block starts, and the fence open at that point. */
  private openStart = 0;
  private openFence: string | null = null;
  private footnotes = false;

  split(text: string): { blocks: string[]; hasFootnotes: boolean } {
    if (!text.startsWith(this.text)) this.reset();
    // Footnote definitions start a line: look again from the start of the last line seen.
    const lineStart = this.text.lastIndexOf("\n") + 1;
    this.footnotes ||= hasFootnotes(text.slice(lineStart));
    this.text = text;
    let current: string[] = [];
    let fence = this.openFence;
    let offset = this.openStart;
    let blockStart = this.openStart;
    let fenceAtBlockStart = fence;
    for (const line of text.slice(this.openStart).split("\n")) {
      const lineEnd = offset + line.length + 1;
      const marker = fenceMarker.exec(line)?.[1];
      if (marker) {
        if (fence === null) fence = marker;
        else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      }
      if (fence === null && line.trim() === "" && !marker) {
        // A blank line closes the block only once it is complete, i.e. followed by more text.
        if (lineEnd <= text.length) {
          if (current.length) this.closed.push(current.join("\n"));
          current = [];
          blockStart = lineEnd;
          fenceAtBlockStart = fence;
        }
      } else current.push(line);
      offset = lineEnd;
    }
    this.openStart = blockStart;
    this.openFence = fenceAtBlockStart;
    const open = current.length ? [current.join("\n")] : [];
    return { blocks: [...this.closed, ...open], hasFootnotes: this.footnotes };
  }

  private reset(): void {
    this.text = "";
    this.closed = [];
    this.openStart = 0;
    this.openFence = null;
    this.footnotes = false;
  }
}

/** Whether the text defines a footnote (`[^1]: …`). */
export function hasFootnotes(text: string): boolean {
  return /^ {0,3}\[\^[^\]\s]+\]:/m.test(text);
}
