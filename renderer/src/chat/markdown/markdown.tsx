/**
 * A reply as Markdown (GFM, footnotes) with highlighted code and a copy button per code block,
 * math (KaTeX) and Mermaid diagrams, both loaded only when a reply needs them. Rendered
 * block by block (see markdown-blocks.ts) so streaming text re-parses only its growing tail.
 *
 * Streaming keeps every task short: the reply's Markdown renders after the frame that brought the
 * text (a deferred value, so the store's update costs the frame only the message row); a render
 * parses new blocks for a few milliseconds at most and shows the blocks parsed so far, the rest
 * following in the next frames (a fast stream is shown a little behind, never in one long task);
 * parsed blocks are cached by their text; the block still being written is shown without syntax
 * highlighting until it is closed, and a code block still open is shown as plain code, not parsed.
 */
import { memo, startTransition, useDeferredValue, useEffect, useMemo, useReducer, useState } from "react";
import { OpenCodeBlock } from "./code-block.js";
import { GrowingBlockSplitter } from "./markdown-blocks.js";
import { isBlockParsed, parseBlock } from "./markdown-parse.js";
import { currentMathPlugins, useMathPlugins } from "./math-plugins.js";
import { openFenceOf } from "./open-fence.js";
import type { StreamedText } from "../../stores/chat/streamed-text.js";

export { warmUpMarkdown } from "./markdown-parse.js";

/**
 * One block, open (still being written: parsed unhighlighted, and a code block still open at its
 * end shown as plain code) or closed. One component for both, so a block that closes keeps its
 * place in React's tree: a paragraph's closed parse is the very element its last open parse was
 * (one cache entry), and closing it costs nothing; a remount would rebuild and lay out its DOM again.
 */
const MarkdownBlock = memo(function MarkdownBlock({ text, open }: { text: string; open: boolean }) {
  const fence = useMemo(() => (open ? openFenceOf(text) : null), [open, text]);
  const parsed = fence ? fence.prefix : text;
  const math = useMathPlugins(parsed);
  if (!fence) return <div className="markdown-block">{parseBlock(text, math, !open)}</div>;
  return (
    <div className="markdown-block">
      {fence.prefix ? parseBlock(fence.prefix, math, false) : null}
      {fence.prefix ? "\n" : null}
      <OpenCodeBlock language={fence.language} content={fence.content} />
    </div>
  );
});

/** The block still being written. */
export const OpenBlock = ({ text }: { text: string }) => <MarkdownBlock text={text} open />;

/** What of a block must be parsed before it can be shown (its part before an open fence, if open). */
const parsedPartOf = (block: string, open: boolean): string =>
  open ? (openFenceOf(block)?.prefix ?? block) : block;

/** Blocks per group: a long reply is a few dozen boxes for layout to track, not hundreds. */
const groupSize = 16;

interface BlockGroupProps {
  blocks: readonly string[];
  /** The block still being written, by its index in this group (-1: none). */
  open: number;
  /** The reply is still streaming (transcript.css: its groups are laid out even off-screen). */
  live: boolean;
}

const sameGroup = (a: BlockGroupProps, b: BlockGroupProps): boolean =>
  a.open === b.open &&
  a.live === b.live &&
  a.blocks.length === b.blocks.length &&
  a.blocks.every((block, i) => block === b.blocks[i]);

// Each group is its own containment box: off-screen parts of a long reply skip layout and paint.
const BlockGroup = memo(function BlockGroup({ blocks, open, live }: BlockGroupProps) {
  return (
    <div className="markdown-group" data-live={live || undefined}>
      {blocks.map((block, index) => (
        <MarkdownBlock key={index} text={block} open={index === open} />
      ))}
    </div>
  );
}, sameGroup);

/**
 * How long one render may spend parsing new blocks of a streaming reply. It bounds the frame's
 * layout as well (the blocks parsed are the blocks newly laid out); at a few tenths of a
 * millisecond a block, it still parses several times what a fast stream brings per frame.
 */
const parseBudgetMs = 4;

/**
 * How much new text one render of a streaming reply may add to the page: the frame lays out what
 * is added (about a quarter of a millisecond per thousand characters of prose), and a plain line
 * parses at no cost (markdown-parse.ts), so the parse budget alone no longer bounds it. Several
 * times what a stream at 20,000 tokens/s brings per frame, so a renderer that fell behind catches up.
 */
export const newTextPerRender = 8000;

/**
 * Parses the blocks not parsed yet, in order, for at most `budgetMs`, and adds to the `shownBefore`
 * blocks already on the page about `newTextPerRender` characters (always one block at least);
 * returns how many blocks from the start may be shown. Reads the clock on purpose: this is the time
 * slicing.
 */
function blocksParsedWithin(
  blocks: readonly string[],
  open: number,
  budgetMs: number,
  shownBefore: number,
): number {
  const partOf = (index: number) => parsedPartOf(blocks[index] as string, index === open);
  const isParsed = (index: number) => {
    const part = partOf(index);
    return !part || isBlockParsed(part, currentMathPlugins(part), index !== open);
  };
  // Blocks are parsed in order: the ones still to parse are the tail.
  let first = blocks.length;
  while (first > 0 && !isParsed(first - 1)) first--;
  // Blocks parsed by a render that was never shown (React may drop a render) are laid out anew.
  const start = Math.min(first, shownBefore);
  const deadline = performance.now() + budgetMs;
  let added = 0;
  for (let index = start; index < blocks.length; index++) {
    if (index > start && (added >= newTextPerRender || performance.now() > deadline)) return index;
    const part = partOf(index);
    added += (blocks[index] as string).length;
    if (part) parseBlock(part, currentMathPlugins(part), index !== open);
  }
  return blocks.length;
}

/** How many blocks the last committed render showed (set after each commit, like the splitter's state). */
class CommittedBlocks {
  shown = 0;
  record(count: number): void {
    this.shown = count;
  }
}

interface MarkdownProps {
  text: string;
  /** The text is still being written: its last block is open. */
  streaming?: boolean;
  /** While it streams, the same text as the pieces it came in (read instead of the whole text). */
  streamed?: StreamedText | undefined;
}

/** What a streaming reply shows before its first deferred render. */
const nothingYet: MarkdownProps = { text: "", streaming: true };

export const Markdown = memo(function Markdown({ text, streaming = false, streamed }: MarkdownProps) {
  // Rendered after the urgent work of the frame that brought the text, in tasks of their own. The
  // props change together; a finished reply shows at once, a streaming one from its next task.
  const shown = useDeferredValue(
    useMemo(() => ({ text, streaming, streamed }), [text, streaming, streamed]),
    streaming ? nothingYet : undefined,
  );
  return <MarkdownBlocks {...shown} />;
});

const MarkdownBlocks = memo(function MarkdownBlocks({ text, streaming = false, streamed }: MarkdownProps) {
  // One splitter per rendered reply: while it streams, each frame scans only the new text.
  const [splitter] = useState(() => new GrowingBlockSplitter());
  const blocks = useMemo(() => {
    const split = streamed ? splitter.splitStreamed(text, streamed) : splitter.split(text);
    // Footnote references and their definitions must be parsed together to link up.
    return split.hasFootnotes ? [text] : split.blocks;
  }, [splitter, text, streamed]);
  const open = streaming ? blocks.length - 1 : -1;

  // While it streams, and until it has caught up, a render parses for at most the budget and shows
  // the blocks parsed so far; the next frame goes on.
  const [lagging, setLagging] = useState(false);
  const [, renderAgain] = useReducer((count: number) => count + 1, 0);
  const [committed] = useState(() => new CommittedBlocks());
  const shown =
    streaming || lagging ? blocksParsedWithin(blocks, open, parseBudgetMs, committed.shown) : blocks.length;
  useEffect(() => {
    committed.record(shown);
  });
  const behind = shown < blocks.length;
  // As transitions: an update made in an animation frame or an effect would otherwise be rendered
  // together with the frame's urgent update (the store's), in one task.
  useEffect(() => startTransition(() => setLagging(behind)), [behind]);
  useEffect(() => {
    if (!behind) return;
    // Once a frame: a render's fixed cost is paid per frame, not per slice of parsing.
    const frame = requestAnimationFrame(() => startTransition(renderAgain));
    return () => cancelAnimationFrame(frame);
  });

  const groups: number[] = [];
  for (let start = 0; start < shown; start += groupSize) groups.push(start);
  return (
    <div className="markdown">
      {groups.map((start) => (
        <BlockGroup
          key={start}
          blocks={blocks.slice(start, Math.min(start + groupSize, shown))}
          open={open >= start && open < start + groupSize ? open - start : -1}
          live={streaming}
        />
      ))}
    </div>
  );
});
