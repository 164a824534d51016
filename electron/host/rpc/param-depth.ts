/**
 * How deep params may nest. No method needs more than a few levels, and a value nested thousands
 * deep would overflow the stack of whatever walks it next (the YAML writer, a deep copy), so the
 * router refuses it up front as `invalid_params`, naming where it went too deep.
 */
export const MAX_PARAM_DEPTH = 64;

/** The dotted path (e.g. `value.0.n`) where `value` nests deeper than `limit`, or null. */
export function tooDeepAt(value: unknown, limit = MAX_PARAM_DEPTH): string | null {
  // Iterative on purpose: the point is not to recurse into what may be 100,000 levels deep.
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 0, path: "" }];
  while (stack.length) {
    const { value: current, depth, path } = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth >= limit) return path;
    for (const [key, child] of Object.entries(current)) {
      if (typeof child === "object" && child !== null) {
        stack.push({ value: child, depth: depth + 1, path: path ? `${path}.${key}` : key });
      }
    }
  }
  return null;
}
