import { foldForSearch, tokenReader, tokenSpans, type SearchTerm } from "./fts-query.js";
import { markdownToPlainText } from "../store/text/markdown-plain.js";
import type { SearchSnippet } from "../store/types.js";

const TOKENS_BEFORE = 5;
const TOKENS_TOTAL = 18;
const ELLIPSIS = "…";

/**
 * An excerpt of `content` (Markdown, shown as plain text) around its first matching word, with
 * the matched words' offsets.
 * Built here rather than with FTS5's snippet(), which costs a full index lookup per message;
 * this needs only the message text.
 */
export function buildSnippet(
  markdown: string,
  terms: readonly SearchTerm[],
): Pick<SearchSnippet, "text" | "highlights"> {
  const content = markdownToPlainText(markdown);
  // Words are folded one at a time, and only up to the first match.
  const matches = (text: string, span: { start: number; end: number }) => {
    const folded = foldForSearch(text.slice(span.start, span.end));
    return terms.some((term) => (term.prefix ? folded.startsWith(term.token) : folded === term.token));
  };
  // Tokens are read only as far as the excerpt needs: up to the first match, then one more than
  // the excerpt shows after it (to know whether the text goes on).
  const next = tokenReader(content);
  const spans: { start: number; end: number }[] = [];
  let firstHit = -1;
  let wanted = Infinity;
  for (let span = next(); span !== null && spans.length < wanted; span = next()) {
    spans.push(span);
    if (firstHit === -1 && matches(content, span)) {
      firstHit = spans.length - 1;
      wanted = Math.max(firstHit - TOKENS_BEFORE, 0) + TOKENS_TOTAL + 1;
    }
  }
  if (spans.length === 0) return { text: content.slice(0, 200), highlights: [] };
  firstHit = Math.max(0, firstHit);
  const from = Math.max(0, Math.min(firstHit - TOKENS_BEFORE, spans.length - TOKENS_TOTAL));
  const to = Math.min(spans.length - 1, from + TOKENS_TOTAL - 1);
  const window = spans.slice(from, to + 1);
  const start = from === 0 ? 0 : (window[0]?.start ?? 0);
  const end = to === spans.length - 1 ? content.length : (window[window.length - 1]?.end ?? content.length);
  const lead = start > 0 ? ELLIPSIS : "";
  const text =
    lead + content.slice(start, end).replace(/\s+/gu, " ") + (end < content.length ? ELLIPSIS : "");
  // Whitespace runs collapse above, so offsets are recomputed on the collapsed text.
  const highlights: SearchSnippet["highlights"] = [];
  const shown = tokenSpans(text);
  for (const span of shown) {
    if (matches(text, span)) highlights.push({ start: span.start, end: span.end });
  }
  return { text, highlights };
}
