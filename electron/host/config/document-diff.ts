/** Which dotted keys differ between two settings documents: mappings are walked, anything else is a leaf. */
import { isDeepStrictEqual } from "node:util";

type Mapping = Record<string, unknown>;

const isMapping = (value: unknown): value is Mapping =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function changedKeys(before: unknown, after: unknown, prefix = ""): string[] {
  if (isMapping(before) && isMapping(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...keys].flatMap((key) =>
      changedKeys(before[key], after[key], prefix ? `${prefix}.${key}` : key),
    );
  }
  return isDeepStrictEqual(before, after) ? [] : [prefix || "(top level)"];
}

/** Keys both lists touched: the same key, or one inside the other. */
export function overlappingKeys(ours: readonly string[], theirs: readonly string[]): string[] {
  const inside = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
  return ours.filter((key) => theirs.some((other) => inside(key, other)));
}

/** The value at a dotted key, or undefined. */
export function valueAt(doc: unknown, key: string): unknown {
  let value: unknown = doc;
  for (const part of key.split(".")) value = isMapping(value) ? value[part] : undefined;
  return value;
}
