// Snippets skip the Markdown rules whose characters a message lacks; skipping must never change
// the text a snippet shows.
import { describe, expect, it } from "vitest";
import {
  MARKDOWN_RULES,
  markdownToPlainText,
} from "../../../../electron/host/sessions/store/text/markdown-plain.js";
import { seededRandom } from "../../../fixtures/seeded-random.js";

function everyRule(markdown: string): string {
  let text = markdown;
  for (const [pattern, replacement] of MARKDOWN_RULES) text = text.replace(pattern, replacement);
  return text;
}

// Every character some rule looks for, and words, spaces and line breaks between them.
const PIECES = [
  ..."`~-*_![]()^<>/#+.)|:\"'?1 \n",
  "word",
  "a",
  "```",
  "---",
  "**",
  "1. ",
  "- [x] ",
  "<b>",
  "[t](u)",
  "![alt](src)",
  "[^1]",
  "| a | b |",
  "> ",
  "## ",
];

describe("markdownToPlainText", () => {
  it("gives what applying every rule gives, for text with and without each rule's characters", () => {
    const random = seededRandom(7);
    for (let i = 0; i < 5_000; i++) {
      const length = 1 + Math.floor(random() * 24);
      const markdown = Array.from(
        { length },
        () => PIECES[Math.floor(random() * PIECES.length)] as string,
      ).join("");
      expect(markdownToPlainText(markdown), JSON.stringify(markdown)).toBe(everyRule(markdown));
    }
  });

  it("leaves plain words as they are", () => {
    expect(markdownToPlainText("just some words\nand more")).toBe("just some words\nand more");
  });
});
