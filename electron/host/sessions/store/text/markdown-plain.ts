/**
 * Markdown as the words a person reads, for search snippets: no emphasis marks, code fences,
 * link targets, heading hashes, list bullets, table pipes or HTML tags. Line breaks stay (the
 * snippet collapses whitespace itself). Not a parser: a snippet only needs the visible words.
 */
// Each rule with the characters it needs: a rule whose characters are all absent can't match, and no
// replacement adds a character the text did not have, so a plain message skips most passes.
export const MARKDOWN_RULES: ReadonlyArray<readonly [RegExp, string, readonly string[]]> = [
  [/^\s*(```|~~~).*$/gm, "", ["`", "~"]], // code fence lines (the code itself stays)
  [/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/gm, "", ["-"]], // table separator rows
  [/^\s*([-*_])(\s*\1){2,}\s*$/gm, "", ["-", "*", "_"]], // horizontal rules
  [/!\[([^\]]*)\]\([^)]*\)/g, "$1", ["!"]], // images: their alt text
  [/\[([^\]]+)\]\([^)]*\)/g, "$1", ["["]], // links: their text
  [/\[\^([^\]]+)\]:?/g, "", ["["]], // footnote marks
  [/<\/?[a-zA-Z][^>]*>/g, " ", ["<"]], // HTML tags
  [/^\s{0,3}#{1,6}\s+/gm, "", ["#"]], // headings
  [/^\s{0,3}>\s?/gm, "", [">"]], // block quotes
  [/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/gm, "", ["-", "*", "+", ".", ")"]], // list items and task boxes
  [/`+/g, "", ["`"]], // inline code
  [/(\*\*|__|~~)/g, "", ["*", "_", "~"]], // strong, strikethrough
  [/(^|[\s(["'])[*_]+(?=\S)/gm, "$1", ["*", "_"]], // emphasis opening a word
  [/(\S)[*_]+(?=[\s)\]"'.,;:!?]|$)/gm, "$1", ["*", "_"]], // emphasis closing a word
  [/\s*\|\s*/g, " ", ["|"]], // table cells
];

export function markdownToPlainText(markdown: string): string {
  let text = markdown;
  for (const [pattern, replacement, needs] of MARKDOWN_RULES) {
    if (needs.some((char) => text.includes(char))) text = text.replace(pattern, replacement);
  }
  return text;
}
