// The growing splitter must split every prefix of a streaming reply exactly as splitting the
// whole prefix afresh does, while scanning only the new text.
import { describe, expect, it } from "vitest";
import { GrowingBlockSplitter, splitMarkdownBlocks } from "../../renderer/src/chat/markdown-blocks";

const pieces = [
  "word ",
  "two words ",
  "\n",
  "\n\n",
  "```ts\n",
  "```\n",
  "~~~\n",
  "   ",
  "- item\n",
  "[^1]: note\n",
  "x",
];

function makeRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("GrowingBlockSplitter", () => {
  it("agrees with splitMarkdownBlocks on every prefix of random streams", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = makeRandom(seed);
      const splitter = new GrowingBlockSplitter();
      let text = "";
      for (let step = 0; step < 120; step++) {
        const piece = pieces[Math.floor(random() * pieces.length)]!;
        // Deltas may cut a piece anywhere, like a provider's chunks.
        const cut = Math.floor(random() * (piece.length + 1));
        for (const part of [piece.slice(0, cut), piece.slice(cut)]) {
          text += part;
          const { blocks, hasFootnotes } = splitter.split(text);
          expect(blocks).toEqual(splitMarkdownBlocks(text));
          expect(hasFootnotes).toBe(/^ {0,3}\[\^[^\]\s]+\]:/m.test(text));
        }
      }
    }
  });

  it("starts afresh when the text is not an extension of the last one", () => {
    const splitter = new GrowingBlockSplitter();
    splitter.split("a\n\nb\n\nc");
    expect(splitter.split("x\n\ny").blocks).toEqual(["x", "y"]);
    expect(splitter.split("[^1]: n\n\nz").hasFootnotes).toBe(true);
    expect(splitter.split("plain").hasFootnotes).toBe(false);
  });
});
