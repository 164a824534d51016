/**
 * Splits Markdown into top-level blocks at blank lines outside fenced code, so a streaming reply
 * re-parses only its last block per frame: the blocks before it are final and stay memoized.
 */
const fence = /^ {0,3}(`{3,}|~{3,})/;

export function splitMarkdownBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let openFence: string | null = null;
  for (const line of text.split("\n")) {
    const marker = fence.exec(line)?.[1];
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

/** Whether the text defines a footnote (`[^1]: …`). */
export function hasFootnotes(text: string): boolean {
  return /^ {0,3}\[\^[^\]\s]+\]:/m.test(text);
}
