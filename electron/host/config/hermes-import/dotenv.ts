/**
 * A `.env` file as Hermes writes and reads it: `NAME=value` lines, optional `export `, values in
 * single or double quotes (double quotes take \n escapes), `#` comments. Lines that are none of
 * these are skipped: a `.env` is never a reason to refuse the import.
 */
const line = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/;

export function parseDotenv(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const match = line.exec(raw);
    if (!match) continue;
    const [, name, rest] = match as unknown as [string, string, string];
    values.set(name, unquote(rest));
  }
  return values;
}

function unquote(value: string): string {
  if (value.startsWith('"')) {
    const end = value.indexOf('"', 1);
    const inner = end > 0 ? value.slice(1, end) : value.slice(1);
    return inner.replace(/\\n/g, "\n").replace(/\\"/g, '"');
  }
  if (value.startsWith("'")) {
    const end = value.indexOf("'", 1);
    return end > 0 ? value.slice(1, end) : value.slice(1);
  }
  // An unquoted value ends at a comment that follows whitespace.
  return value.replace(/\s+#.*$/, "");
}
