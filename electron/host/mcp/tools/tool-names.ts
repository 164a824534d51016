/**
 * Names the model sees for MCP tools (docs/contract.md §13.2) and which of a server's tools are on
 * (`tools.include` / `tools.exclude`, fnmatch patterns; include wins).
 */
import { createHash } from "node:crypto";

export const MCP_TOOL_PREFIX = "mcp__";
const MAX_TOOL_NAME = 64;

/** `mcp__<id>__<tool>`, every character outside [A-Za-z0-9_] as `_`, cut to 64 with a short hash. */
export function qualifiedToolName(serverId: string, tool: string): string {
  const name = `${MCP_TOOL_PREFIX}${serverId}__${tool}`.replace(/[^A-Za-z0-9_]/g, "_");
  if (name.length <= MAX_TOOL_NAME) return name;
  // The hash is of the unsanitised pair, so two long names that only differ after the cut stay apart.
  const hash = createHash("sha256").update(`${serverId}\0${tool}`).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
}

/** Shell-style glob: `*` any run, `?` one character, `[abc]` / `[!abc]` a set; case-sensitive. */
export function fnmatch(pattern: string, name: string): boolean {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === "*") source += ".*";
    else if (char === "?") source += ".";
    else if (char === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end === -1) source += "\\[";
      else {
        let set = pattern.slice(i + 1, end);
        if (set.startsWith("!")) set = `^${set.slice(1)}`;
        source += `[${set.replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else source += char.replace(/[.+^${}()|\\/]/g, "\\$&");
  }
  return new RegExp(`^${source}$`).test(name);
}

/** Whether a tool is on: with an include list only what it names; else all but what exclude names. */
export function toolEnabled(
  filter: { include: readonly string[]; exclude: readonly string[] },
  tool: string,
): boolean {
  if (filter.include.length > 0) return filter.include.some((p) => fnmatch(p, tool));
  return !filter.exclude.some((p) => fnmatch(p, tool));
}
