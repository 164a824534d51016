// @vitest-environment happy-dom
/**
 * A block that is one plain line of prose skips the parser: what it shows must be exactly what
 * the parser makes of it, and anything that may hold Markdown must still go to the parser.
 */
import { renderToStaticMarkup } from "react-dom/server";
import renderMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { describe, expect, it } from "vitest";
import { parseBlock, plainParagraph } from "../../renderer/src/chat/markdown/markdown-parse";

const parsed = (text: string) =>
  renderToStaticMarkup(renderMarkdown({ children: text, remarkPlugins: [remarkGfm] }));

const plainLines = [
  "w0 w1 w2 w3",
  "Hello, world! How are you today?",
  "   three leading spaces and trailing ones   ",
  "A sentence. Another one; and a dash - inside, 50% (or so) + more = fine.",
  "2024 was a year, 3.5 is a number, 12 is not a list",
  "Ünïcödé — “quotes” and ‘apostrophes’ ... ellipsis … emoji 🎉 and non\u00a0breaking spaces\u00a0",
  "Question? Exclamation! Slash/backslash-free path a/b/c",
  "no hash at the start, a hash later # here",
];

const markdownLines = [
  "# Heading",
  "> quote",
  "- item",
  "+ item",
  "* item",
  "1. item",
  "1) item",
  "    indented code",
  "\tcode",
  "---",
  "___",
  "===",
  "```js",
  "~~~",
  "<div>html</div>",
  "| a | b |",
  "[ref]: https://example.com",
  "some *emphasis*",
  "some _emphasis_",
  "some `code`",
  "a [link](x)",
  "an ![image](x)",
  "a <b>tag</b>",
  "an &amp; entity",
  "an \\* escape",
  "~~struck~~",
  "math $x$",
  "see https://example.com",
  "see www.example.com",
  "see WWW.example.com",
  "mail me@example.com",
  "two\nlines",
  "line with a break\r",
  "nul\u0000char",
  "",
  "   ",
];

describe("plain lines skip the Markdown parser", () => {
  it("shows a plain line exactly as the parser would", () => {
    for (const line of plainLines) {
      const fast = plainParagraph(line);
      expect(fast, line).not.toBeNull();
      expect(renderToStaticMarkup(fast!), line).toBe(parsed(line));
    }
  });

  it("sends anything that may hold Markdown to the parser", () => {
    for (const line of markdownLines) expect(plainParagraph(line), JSON.stringify(line)).toBeNull();
  });

  it("shows the same through parseBlock, whichever way a block goes", () => {
    for (const line of plainLines)
      expect(renderToStaticMarkup(parseBlock(line, null, false))).toBe(parsed(line));
    for (const line of ["some *emphasis*", "a [link](x)", "see www.example.com", "# Heading"]) {
      expect(renderToStaticMarkup(parseBlock(line, null, false)), JSON.stringify(line)).not.toBe(
        `<p>${line}</p>`,
      );
    }
  });
});
