/** Whether a value a plugin hands over (an RPC result, an event payload) is plain JSON. */

/** Why `value` is not plain JSON (with where), or null when it is. */
export function jsonProblem(value: unknown, where = "the value"): string | null {
  const seen = new Set<object>();
  const visit = (item: unknown, at: string, depth: number): string | null => {
    if (depth > 64) return `${at} nests deeper than 64 levels`;
    if (item === null || typeof item === "string" || typeof item === "boolean") return null;
    if (typeof item === "number")
      return Number.isFinite(item) ? null : `${at} is ${item}, not a finite number`;
    if (typeof item !== "object") return `${at} is ${item === undefined ? "undefined" : `a ${typeof item}`}`;
    if (seen.has(item)) return `${at} refers back to itself`;
    seen.add(item);
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        const problem = visit(item[i], `${at}[${i}]`, depth + 1);
        if (problem) return problem;
      }
    } else {
      const proto = Object.getPrototypeOf(item) as unknown;
      if (proto !== Object.prototype && proto !== null)
        return `${at} is a ${(item as object).constructor?.name ?? "class instance"}, not a plain object`;
      for (const [key, child] of Object.entries(item)) {
        const problem = visit(child, `${at}.${key}`, depth + 1);
        if (problem) return problem;
      }
    }
    seen.delete(item);
    return null;
  };
  return visit(value, where, 0);
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  [Object.prototype, null].includes(Object.getPrototypeOf(value) as object | null);
