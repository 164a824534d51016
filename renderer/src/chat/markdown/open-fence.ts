/**
 * Finds a fenced code block left open at the end of a streaming reply's last block, so it can be
 * shown as plain code while it grows instead of being parsed again every frame (a long code block
 * would cost more each frame). Only cases where the parser's answer is certain qualify; anything
 * else returns null and the block is parsed as usual.
 */

export interface OpenFence {
  /** The Markdown before the fence (parsed on its own: a fence at column 0 ends whatever came before). */
  prefix: string;
  /** The first word of the info string, or null without one. */
  language: string | null;
  /** Everything after the opening fence's line. */
  content: string;
}

/** A line that may open or close a fence: up to 3 spaces, 3+ backticks or tildes, the rest. */
const fenceLine = /^( {0,3})(`{3,}|~{3,})([^\n]*)$/gm;
/** An info string whose first word is the language as written (no escapes or entities to decode). */
const plainInfo = /^[^`\\&]*$/;
/**
 * Before the fence: what could swallow it (an HTML block, display math) or move it (footnotes
 * render last).
 */
const unsafePrefix = /^ {0,3}(<|\[\^|\$\$)/m;

export function openFenceOf(block: string): OpenFence | null {
  if (block.includes("\r")) return null;
  let open: { start: number; end: number; indent: number; marker: string; info: string } | null = null;
  for (const match of block.matchAll(fenceLine)) {
    const [line, indent = "", marker = "", rest = ""] = match;
    if (open === null) {
      // A backtick fence's info string can't hold a backtick (then it is inline code).
      if (marker.startsWith("`") && rest.includes("`")) continue;
      open = {
        start: match.index,
        end: match.index + line.length,
        indent: indent.length,
        marker,
        info: rest,
      };
    } else if (marker[0] === open.marker[0] && marker.length >= open.marker.length && /^[ \t]*$/.test(rest)) {
      open = null;
    }
  }
  if (open === null || open.indent > 0 || !plainInfo.test(open.info)) return null;
  const prefix = block.slice(0, open.start).replace(/\n$/, "");
  if (unsafePrefix.test(prefix)) return null;
  return {
    prefix,
    language: open.info.trim().split(/\s/)[0] || null,
    content: block.slice(open.end + 1),
  };
}
