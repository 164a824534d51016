/**
 * One Markdown block to React elements (react-markdown: GFM, highlight.js, math when loaded), and
 * the cache that makes each block's parse happen once however often it is rendered.
 */
import { Fragment, type ReactElement, type ReactNode } from "react";
import renderMarkdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import type { PluggableList } from "unified";
import { CodeBlock } from "./code-block.js";
import type { MathPlugins } from "./math-plugins.js";
import { ReplyLink } from "../transcript/reply-link.js";

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
    const language = /language-([\w+-]+)/.exec(
      (children as { props?: { className?: string } } | undefined)?.props?.className ?? "",
    )?.[1];
    return (
      <CodeBlock language={language ?? null} code={textOf(children).replace(/\n$/, "")}>
        {children}
      </CodeBlock>
    );
  },
  a({ children, href }) {
    return <ReplyLink href={href}>{children}</ReplyLink>;
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

export function isBlockParsed(text: string, math: MathPlugins | null, highlight: boolean): boolean {
  return parsedBlocks.has(blockKey(text, math, highlight));
}

/**
 * One line of prose: up to three spaces, then no character that can start Markdown syntax at the
 * line's start (heading, quote, list, rule, fence, HTML, table, link definition) and none anywhere
 * that starts inline syntax (emphasis, code, links, HTML, character references, escapes,
 * strikethrough, tables, math) or a GFM autolink literal (`:` of a URL, `@` of an address, `www.`).
 */
const plainLine = /^ {0,3}(?![ #>+\-*=_|~`<[]|\d{1,9}[.)](?: |$))[^\n\r\t\0*_`[\]<>&\\~|$:@]+$/;

/**
 * The parse of a block that is one plain line of prose, made without the parser: one paragraph
 * holding the line without its outer spaces, the very element react-markdown makes of it (tested
 * against it). Why: most paragraphs of a reply are such lines, and the parser (micromark, mdast,
 * hast, React) takes about a millisecond for one of a few hundred characters; a fast stream brings
 * several a frame. Null when the block may hold any Markdown.
 */
export function plainParagraph(text: string): ReactElement | null {
  if (!plainLine.test(text) || /www\./i.test(text)) return null;
  const line = text.replace(/^ +| +$/g, "");
  if (!line) return null;
  return (
    <Fragment>
      <p key="p-0">{line}</p>
    </Fragment>
  );
}

export function parseBlock(text: string, math: MathPlugins | null, wantHighlight: boolean): ReactElement {
  const key = blockKey(text, math, wantHighlight);
  const highlight = key[1] === "h";
  const cached = parsedBlocks.get(key);
  if (cached) return cached;
  const plain = plainParagraph(text);
  if (plain) {
    remember(key, plain);
    return plain;
  }
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
  remember(key, element);
  return element;
}

function remember(key: string, element: ReactElement): void {
  if (parsedBlocks.size >= parsedBlocksLimit) {
    parsedBlocks.delete(parsedBlocks.keys().next().value as string);
  }
  parsedBlocks.set(key, element);
}

/**
 * Samples of every kind of block, smallest first: parsing each once makes the first reply's first
 * frame not pay for the parser's first run (its tables and the compiler's first pass).
 */
const warmUpSamples = [
  "text",
  "Some *text*, `code` and a [link](https://example.com).",
  "# Title\n\n- item\n- item",
  "| a |\n| - |\n| b |",
  "```js\nconst a = 1;\n```",
];

/**
 * Parses one warm-up sample; returns whether any are left. Run one per idle callback: the first
 * runs are slow (cold code), and all of them in one task would be a long task of its own.
 */
export function warmUpMarkdown(step: number): boolean {
  const sample = warmUpSamples[step];
  if (sample === undefined) return false;
  renderMarkdown({ children: sample, remarkPlugins, rehypePlugins, components });
  return step + 1 < warmUpSamples.length;
}
