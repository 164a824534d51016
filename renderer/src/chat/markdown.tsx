/**
 * A reply as Markdown (GFM, footnotes) with highlighted code and a copy button per code block,
 * math (KaTeX) and Mermaid diagrams, both loaded only when a reply needs them. Rendered
 * block by block (see markdown-blocks.ts) so streaming text re-parses only its growing tail.
 *
 * Streaming stays off the critical path of a frame: the text is a deferred value, so parsing new
 * blocks happens in React's interruptible background render (yielding every few milliseconds)
 * instead of in the frame that received the text; parsed blocks are cached by their text, so a
 * background render that is restarted by the next frame's text keeps what it already parsed; and
 * the block still being written is shown without syntax highlighting until it is closed.
 */
import { memo, useDeferredValue, useMemo, useState, type ReactElement, type ReactNode } from "react";
import renderMarkdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import type { PluggableList } from "unified";
import { CopyButton } from "./copy-button.js";
import { GrowingBlockSplitter } from "./markdown-blocks.js";
import { useMathPlugins, type MathPlugins } from "./math-plugins.js";
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

function parseBlock(text: string, math: MathPlugins | null, wantHighlight: boolean): ReactElement {
  // Highlighting touches only code blocks: without one, both variants are the same parse.
  const highlight = wantHighlight && mayHoldCodeBlock(text);
  const key = `${math ? "m" : "-"}${highlight ? "h" : "-"}${text}`;
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
  // Each block is its own containment box: off-screen blocks of a long reply skip layout and paint.
  return <div className="markdown-block">{parseBlock(text, math, highlight)}</div>;
});

export const Markdown = memo(function Markdown({
  text,
  streaming = false,
}: {
  text: string;
  /** The text is still being written: its last block is open. */
  streaming?: boolean;
}) {
  // A frame that brings more text renders the blocks already shown; the new text follows in a
  // background render that yields to the next frame.
  const shown = useDeferredValue(text);
  // One splitter per rendered reply: while it streams, each frame scans only the new text.
  const [splitter] = useState(() => new GrowingBlockSplitter());
  const blocks = useMemo(() => {
    const split = splitter.split(shown);
    // Footnote references and their definitions must be parsed together to link up.
    return split.hasFootnotes ? [shown] : split.blocks;
  }, [splitter, shown]);
  const last = blocks.length - 1;
  return (
    <div className="markdown">
      {blocks.map((block, index) => (
        <MarkdownBlock key={index} text={block} highlight={!streaming || index < last} />
      ))}
    </div>
  );
});
