/**
 * A fenced code block of a reply: its language and a copy button above the code, or a Mermaid
 * diagram for ```mermaid. The parsed Markdown and a code block still being streamed both render
 * through here, so the two can't differ in markup.
 */
import type { ReactNode } from "react";
import { CopyButton } from "../transcript/copy-button.js";
import { MermaidDiagram } from "./mermaid-diagram.js";

export function CodeBlock({
  language,
  code,
  children,
}: {
  language: string | null;
  /** The code as copied (no trailing line break). */
  code: string;
  /** The `<code>` element as rendered (highlighted, or plain while it streams). */
  children: ReactNode;
}) {
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
}

/**
 * A fenced code block that is still being written, as the parser would give it unhighlighted: the
 * code is plain text, so each frame costs one text update instead of a parse of the whole block.
 */
export function OpenCodeBlock({ language, content }: { language: string | null; content: string }) {
  // The parser's value: the lines after the opening fence, less one final line break; as HTML it
  // ends in a line break when not empty.
  const code = content.endsWith("\n") ? content.slice(0, -1) : content;
  return (
    <CodeBlock language={language} code={code}>
      <code className={language ? `language-${language}` : undefined}>
        {linePieces(code ? `${code}\n` : "")}
      </code>
    </CodeBlock>
  );
}

/** Lines per text node of a streaming code block. */
const linesPerPiece = 64;

/**
 * The text in pieces of whole lines: the text nodes of finished pieces stay untouched while the
 * last one grows, so a long code block's frame lays out its last lines, not all of them.
 */
function linePieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  let lines = 0;
  for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", end + 1)) {
    if (++lines < linesPerPiece) continue;
    pieces.push(text.slice(start, end + 1));
    start = end + 1;
    lines = 0;
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}
