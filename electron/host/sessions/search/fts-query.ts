/** One word the search looks for, folded like the index folds it. */
export type SearchTerm = { token: string; prefix: boolean };

/** What a person typed, split into words (each a run of tokens that must appear together). */
export type ParsedQuery = {
  words: string[][];
  /** The last token of the last word also matches as a prefix (it is still being typed). */
  lastIsPrefix: boolean;
  /** Every token, for highlighting. */
  terms: SearchTerm[];
};

// What the unicode61 tokenizer keeps as token characters (letters, numbers, marks).
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

// A one-letter prefix matches most of the vocabulary and makes the search slow for no benefit.
const MIN_PREFIX_LENGTH = 2;

/**
 * Parses a raw query. Only tokens survive, so FTS syntax in the input (`AND`, `NEAR`, `*`, `-`,
 * `:`, `^`, `"`, brackets) is searched for as text, never interpreted. Null when nothing in the
 * input is searchable.
 */
export function parseSearchQuery(raw: string): ParsedQuery | null {
  const text = raw.normalize("NFC");
  const words = text
    .split(/\s+/u)
    .map((word) => (word.match(TOKEN) ?? []).map(foldForSearch).filter((token) => token.length > 0))
    .filter((tokens) => tokens.length > 0);
  const lastWord = words[words.length - 1];
  if (!lastWord) return null;
  const lastToken = lastWord[lastWord.length - 1] ?? "";
  const lastIsPrefix = !/\s$/u.test(text) && [...lastToken].length >= MIN_PREFIX_LENGTH;
  const terms = words.flatMap((tokens, w) =>
    tokens.map((token, t) => ({
      token,
      prefix: lastIsPrefix && w === words.length - 1 && t === tokens.length - 1,
    })),
  );
  return { words, lastIsPrefix, terms };
}

/** The last token when it is matched as a prefix, else null. */
export function prefixToken(query: ParsedQuery): string | null {
  if (!query.lastIsPrefix) return null;
  const lastWord = query.words[query.words.length - 1] ?? [];
  return lastWord[lastWord.length - 1] ?? null;
}

/**
 * The FTS5 MATCH expression: each word a quoted phrase (quotes doubled, though tokens hold none),
 * words joined by an explicit AND (FTS5 rejects an implicit one before a bracket). The last word
 * is a prefix phrase (`"…"*`), or, when `completions` is given, an OR of the whole words it
 * completes to: an FTS5 prefix query without a prefix index reads every completion's full
 * doclist on each call, exact terms do not.
 */
export function toMatchExpression(query: ParsedQuery, completions?: readonly string[]): string {
  const quote = (tokens: readonly string[]) => `"${tokens.join(" ").replaceAll('"', '""')}"`;
  return query.words
    .map((tokens, index) => {
      const isLast = index === query.words.length - 1;
      if (!isLast || !query.lastIsPrefix) return quote(tokens);
      if (!completions) return `${quote(tokens)}*`;
      const head = tokens.slice(0, -1);
      const options = completions.map((completion) => quote([...head, completion]));
      return options.length === 1 ? (options[0] as string) : `(${options.join(" OR ")})`;
    })
    .join(" AND ");
}

// Plain ASCII has no diacritics to strip: lower case is the whole fold (most words, most of the time).
const NON_ASCII = /[^\p{ASCII}]/u;

/** Lower case without diacritics, as `unicode61 remove_diacritics 2` indexes text. */
export function foldForSearch(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

/** The token spans of `text`, with offsets into it (fold `text.slice(start, end)` to compare one). */
export function tokenSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  const reader = tokenReader(text);
  for (let span = reader(); span !== null; span = reader()) spans.push(span);
  return spans;
}

/** Reads `text`'s token spans one at a time (null after the last), for callers that stop early. */
export function tokenReader(text: string): () => { start: number; end: number } | null {
  const pattern = new RegExp(TOKEN.source, TOKEN.flags);
  return () => {
    const match = pattern.exec(text);
    return match === null ? null : { start: match.index, end: match.index + match[0].length };
  };
}
