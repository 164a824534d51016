/**
 * Reads JSON out of a model's reply (docs/contract.md §6.6): the whole reply, else a code fence (also after
 * prose), else the outermost `{…}` span. Providers that ignore `response_format` often
 * wrap the object in a fence or lead with a sentence.
 */
export type JsonReply = { ok: true; value: unknown } | { ok: false };

const fencePattern = /```[ \t]*([A-Za-z0-9_-]*)[ \t]*\r?\n([\s\S]*?)```/g;

function tryParse(text: string): JsonReply {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false };
  try {
    return { ok: true, value: JSON.parse(trimmed) };
  } catch {
    return { ok: false };
  }
}

function outermostSpan(text: string, open: string, close: string): string | null {
  const start = text.indexOf(open);
  const end = text.lastIndexOf(close);
  return start >= 0 && end > start ? text.slice(start, end + 1) : null;
}

export function parseJsonReply(text: string): JsonReply {
  const whole = tryParse(text);
  if (whole.ok) return whole;
  for (const match of text.matchAll(fencePattern)) {
    const lang = (match[1] ?? "").toLowerCase();
    if (lang && lang !== "json" && lang !== "jsonc" && lang !== "json5") continue;
    const fenced = tryParse(match[2] ?? "");
    if (fenced.ok) return fenced;
  }
  // Only objects: a bracket in prose ("see [1]") must not turn a text reply into JSON.
  const span = outermostSpan(text, "{", "}");
  return span ? tryParse(span) : { ok: false };
}
