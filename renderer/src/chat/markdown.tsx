/**
 * A reply as Markdown (GFM, footnotes) with highlighted code and a copy button per code block,
 * math (KaTeX) and Mermaid diagrams, both loaded only when a reply needs them. Rendered
 * block by block (see markdown-blocks.ts) so streaming text re-parses only its growing tail.
 *
 * Streaming keeps every frame short: a frame parses new blocks for a few milliseconds at most and
 * shows the blocks parsed so far, the rest following in the next frames (a fast stream is shown
 * a little behind, never in one long task); parsed blocks are cached by their text; and the block
 * still being written is shown without syntax highlighting until it is closed.
 */
import { memo, useEffect, useMemo, useReducer, useState, type ReactElement, type ReactNode } from "react";
import renderMarkdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import type { PluggableList } from "unified";
import { CopyButton } from "./copy-button.js";
import { GrowingBlockSplitter } from "./markdown-blocks.js";
import { currentMathPlugins, useMathPlugins, type MathPlugins } from "./math-plugins.js";
import { MermaidDiagram } from "./mermaid-diagram.js";

const remarkPlugins = [remarkGfm];
// react-markdown attaches plugins on every render, and rehype-highlight's attacher registers all
// its languages each time (most of a streaming frame's cost). Attach it once and reuse the transformer.
const highlightTransformer = rehypeHighlight({ detect: false });
const rehypePlugins = [() => highlightTransformer];

/** Plain text of a rendered node tree (for the code block's copy button). */
function textOf(node: ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (node && typeof node === "object" && "props" in node) {
    return textOf((node as { props: { children?: ReactNode } }).props.children);
  }
  return "";
}

const components: Components = {
  pre({ children }) {
    const code = textOf(children).replace(/\n$/, "");
    const language = /language-([\w+-]+)/.exec(
      (children as { props?: { className?: string } } | undefined)?.props?.className ?? "",
    )?.[1];
    if (language === "mermaid") return <MermaidDiagram source={code} />;
    return (
      <div className="code-block">
        <div className="code-block-bar">
          <span className="code-block-language">{language ?? "code"}</span>
          <CopyButton text={code} label="Copy code" />
        </div>
        <pre>{children}</pre>
      </div>
    );
  },
  a({ children, href }) {
    return (
      <a href={href} target="_blank" rel="noreferrer noopener">
        {children}
      </a>
    );
  },
};

/** Parsed blocks by variant and text: a block is parsed once, however often it is rendered. */
const parsedBlocks = new Map<string, ReactElement>();
/** Enough for several long replies on screen; the oldest entries go first. */
const parsedBlocksLimit = 4000;

/** Whether a block may hold a code block (fenced, or indented by four spaces or a tab). */
const mayHoldCodeBlock = (text: string): boolean => /^ {0,3}(`{3,}|~{3,})|^( {4}|\t)/m.test(text);

function blockKey(text: string, math: MathPlugins | null, wantHighlight: boolean): string {
  // Highlighting touches only code blocks: without one, both variants are the same parse.
  const highlight = wantHighlight && mayHoldCodeBlock(text);
  return `${math ? "m" : "-"}${highlight ? "h" : "-"}${text}`;
}

function parseBlock(text: string, math: MathPlugins | null, wantHighlight: boolean): ReactElement {
  const key = blockKey(text, math, wantHighlight);
  const highlight = key[1] === "h";
  const cached = parsedBlocks.get(key);
  if (cached) return cached;
  const remark: PluggableList = math ? [...remarkPlugins, ...math.remark] : remarkPlugins;
  // KaTeX runs before highlighting, which only touches code.
  const rehype: PluggableList = [...(math ? math.rehype : []), ...(highlight ? rehypePlugins : [])];
  // react-markdown's component is a pure function of its props (no hooks): called directly, its
  // result can be kept.
  const element = renderMarkdown({
    children: text,
    remarkPlugins: remark,
    rehypePlugins: rehype,
    components,
  });
  if (parsedBlocks.size >= parsedBlocksLimit) {
    parsedBlocks.delete(parsedBlocks.keys().next().value as string);
  }
  parsedBlocks.set(key, element);
  return element;
}

const MarkdownBlock = memo(function MarkdownBlock({ text, highlight }: { text: string; highlight: boolean }) {
  const math = useMathPlugins(text);
  return <div className="markdown-block">{parseBlock(text, math, highlight)}</div>;
});

/** Blocks per group: a long reply is a few dozen boxes for layout to track, not hundreds. */
const groupSize = 16;

interface BlockGroupProps {
  blocks: readonly string[];
  /** The block still being written, by its index in this group (-1: none). */
  open: number;
}

const sameGroup = (a: BlockGroupProps, b: BlockGroupProps): boolean =>
  a.open === b.open &&
  a.blocks.length === b.blocks.length &&
  a.blocks.every((block, i) => block === b.blocks[i]);

// Each group is its own containment box: off-screen parts of a long reply skip layout and paint.
const BlockGroup = memo(function BlockGroup({ blocks, open }: BlockGroupProps) {
  return (
    <div className="markdown-group">
      {blocks.map((block, index) => (
        <MarkdownBlock key={index} text={block} highlight={index !== open} />
      ))}
    </div>
  );
}, sameGroup);

/**
 * Parses a sample of every kind of block once, so the first reply's first frame does not pay for
 * the parser's first run (its tables and the compiler's first pass). Run while the page is idle.
 */
export function warmUpMarkdown(): void {
  renderMarkdown({
    children:
      "# Title\n\nSome *text*, `code` and a [link](https://example.com).\n\n- item\n\n| a |\n| - |\n| b |\n\n```js\nconst a = 1;\n```",
    remarkPlugins,
    rehypePlugins,
    components,
  });
}

/** How long one render may spend parsing new blocks of a streaming reply. */
const parseBudgetMs = 3;

export const Markdown = memo(function Markdown({
  text,
  streaming = false,
}: {
  text: string;
  /** The text is still being written: its last block is open. */
  streaming?: boolean;
}) {
  // One splitter per rendered reply: while it streams, each frame scans only the new text.
  const [splitter] = useState(() => new GrowingBlockSplitter());
  const blocks = useMemo(() => {
    const split = splitter.split(text);
    // Footnote references and their definitions must be parsed together to link up.
    return split.hasFootnotes ? [text] : split.blocks;
  }, [splitter, text]);
  const last = blocks.length - 1;
  const highlightOf = (index: number) => !streaming || index < last;

  // While it streams, and until it has caught up, a render parses for at most the budget and shows
  // the blocks parsed so far; the next frame goes on.
  const [lagging, setLagging] = useState(false);
  const [, renderAgain] = useReducer((count: number) => count + 1, 0);
  let shown = blocks.length;
  if (streaming || lagging) {
    const isParsed = (index: number) => {
      const block = blocks[index] as string;
      return parsedBlocks.has(blockKey(block, currentMathPlugins(block), highlightOf(index)));
    };
    // Blocks are parsed in order: the ones still to parse are the tail.
    let first = blocks.length;
    while (first > 0 && !isParsed(first - 1)) first--;
    const deadline = performance.now() + parseBudgetMs;
    for (let index = first; index < blocks.length; index++) {
      if (performance.now() > deadline) {
        shown = index;
        break;
      }
      const block = blocks[index] as string;
      parseBlock(block, currentMathPlugins(block), highlightOf(index));
    }
  }
  const behind = shown < blocks.length;
  useEffect(() => setLagging(behind), [behind]);
  useEffect(() => {
    if (!behind) return;
    const frame = requestAnimationFrame(renderAgain);
    return () => cancelAnimationFrame(frame);
  });

  const open = streaming ? last : -1;
  const groups: number[] = [];
  for (let start = 0; start < shown; start += groupSize) groups.push(start);
  return (
    <div className="markdown">
      {groups.map((start) => (
        <BlockGroup
          key={start}
          blocks={blocks.slice(start, Math.min(start + groupSize, shown))}
          open={open >= start && open < start + groupSize ? open - start : -1}
        />
      ))}
    </div>
  );
});
