/**
 * A reply as Markdown (GFM, footnotes) with highlighted code and a copy button per code block,
 * math (KaTeX) and Mermaid diagrams, both loaded only when a reply needs them. Rendered
 * block by block (see markdown-blocks.ts) so streaming text re-parses only its growing tail.
 */
import { memo, useMemo, useState, type ReactNode } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import { CopyButton } from "./copy-button.js";
import { GrowingBlockSplitter } from "./markdown-blocks.js";
import { useMathPlugins } from "./math-plugins.js";
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

const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  const math = useMathPlugins(text);
  const remark = useMemo(() => (math ? [...remarkPlugins, ...math.remark] : remarkPlugins), [math]);
  // KaTeX runs before highlighting, which only touches code.
  const rehype = useMemo(() => (math ? [...math.rehype, ...rehypePlugins] : rehypePlugins), [math]);
  // Each block is its own containment box: off-screen blocks of a long reply skip layout and paint.
  return (
    <div className="markdown-block">
      <ReactMarkdown remarkPlugins={remark} rehypePlugins={rehype} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  // One splitter per rendered reply: while it streams, each frame scans only the new text.
  const [splitter] = useState(() => new GrowingBlockSplitter());
  const blocks = useMemo(() => {
    const split = splitter.split(text);
    // Footnote references and their definitions must be parsed together to link up.
    return split.hasFootnotes ? [text] : split.blocks;
  }, [splitter, text]);
  return (
    <div className="markdown">
      {blocks.map((block, index) => (
        <MarkdownBlock key={index} text={block} />
      ))}
    </div>
  );
});
