// The growing splitter must split every prefix of a streaming reply exactly as splitting the
// whole prefix afresh does, while scanning only the new text.
import { describe, expect, it } from "vitest";
import { GrowingBlockSplitter, splitMarkdownBlocks } from "../../renderer/src/chat/markdown/markdown-blocks";
import { appendStreamed, piecesSince, type StreamedText } from "../../renderer/src/stores/chat/streamed-text";
import { seededRandom } from "../fixtures/seeded-random.js";

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

describe("GrowingBlockSplitter", () => {
  it("agrees with splitMarkdownBlocks on every prefix of random streams", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = seededRandom(seed);
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

  it("splits a text given as its streamed pieces exactly as the whole text, reading only new pieces", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const random = seededRandom(seed);
      const splitter = new GrowingBlockSplitter();
      let text = "";
      let streamed: StreamedText | null = null;
      for (let step = 0; step < 80; step++) {
        const piece = pieces[Math.floor(random() * pieces.length)]!;
        text += piece;
        streamed = appendStreamed(streamed, piece);
        const split = splitter.splitStreamed(text, streamed);
        expect(split.blocks).toEqual(splitMarkdownBlocks(text));
        expect(split.hasFootnotes).toBe(/^ {0,3}\[\^[^\]\s]+\]:/m.test(text));
      }
      // The reply ends: the host's text (one string) continues the same split.
      expect(splitter.split(text).blocks).toEqual(splitMarkdownBlocks(text));
    }
  });

  it("falls back to the whole text when the pieces are not a continuation of what it split", () => {
    const splitter = new GrowingBlockSplitter();
    splitter.split("a\n\nb");
    // Pieces that start from nothing, given after a whole text: the text decides.
    const other = appendStreamed(appendStreamed(null, "x\n\n"), "y");
    expect(splitter.splitStreamed("x\n\ny", other).blocks).toEqual(["x", "y"]);
    // Pieces that don't add up to the text (a message replaced under the stream): the text decides.
    const stale = appendStreamed(other, "z");
    expect(splitter.splitStreamed("x\n\ny!\n\nw", stale).blocks).toEqual(["x", "y!", "w"]);
  });
});

describe("streamed text", () => {
  it("gives the pieces after an earlier state, and null for a state of another text", () => {
    const a = appendStreamed(null, "one ");
    const b = appendStreamed(a, "two ");
    const c = appendStreamed(b, "three");
    expect(c.length).toBe("one two three".length);
    expect(piecesSince(c, null)).toEqual(["one ", "two ", "three"]);
    expect(piecesSince(c, a)).toEqual(["two ", "three"]);
    expect(piecesSince(c, c)).toEqual([]);
    expect(piecesSince(c, appendStreamed(null, "one "))).toBeNull();
  });
});
