import { ConfigValidationError } from "./config-errors.js";

/** Plain JSON containers as the YAML parser produces them. */
type Container = Record<string, unknown> | unknown[];

const FORBIDDEN_SEGMENTS = new Set(["__proto__", "prototype", "constructor"]);

/** Splits `display.busy_input_mode` into segments; refuses empty or prototype-polluting ones. */
export function parseDottedKey(key: string): string[] {
  const segments = key.split(".");
  if (key === "" || segments.some((segment) => segment === "" || FORBIDDEN_SEGMENTS.has(segment))) {
    throw ConfigValidationError.single(
      key,
      `"${key}" is not a settings key: use dot-separated names such as display.busy_input_mode`,
    );
  }
  return segments;
}

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

function childOf(container: Container, segment: string): unknown {
  if (Array.isArray(container)) return container[Number(segment)];
  return Object.hasOwn(container, segment) ? container[segment] : undefined;
}

function arrayIndex(container: unknown[], segment: string, allowAppend: boolean): number | null {
  if (!/^(0|[1-9]\d*)$/.test(segment)) return null;
  const index = Number(segment);
  return index < container.length || (allowAppend && index === container.length) ? index : null;
}

/** Sets `value` at `path`, creating mappings on the way. Mutates `doc`. */
export function setAtPath(doc: Record<string, unknown>, path: string[], value: unknown): void {
  let current: Container = doc;
  path.forEach((segment, depth) => {
    const isLast = depth === path.length - 1;
    const key = path.slice(0, depth + 1).join(".");
    if (Array.isArray(current)) {
      const index = arrayIndex(current, segment, isLast);
      if (index === null) {
        throw ConfigValidationError.single(key, `${key}: ${segment} is not an index of this list`);
      }
      if (isLast) current[index] = value;
      else current = descend(current[index], key);
      return;
    }
    if (isLast) {
      current[segment] = value;
      return;
    }
    if (!Object.hasOwn(current, segment) || current[segment] === undefined) current[segment] = {};
    current = descend(current[segment], key);
  });
}

function descend(value: unknown, key: string): Container {
  if (!isContainer(value)) {
    throw ConfigValidationError.single(key, `${key} is a single value, not a mapping: set ${key} itself`);
  }
  return value;
}

/** Deletes the value at `path`; returns whether anything was there. Mutates `doc`. */
export function deleteAtPath(doc: Record<string, unknown>, path: string[]): boolean {
  const parent = containerAt(doc, path.slice(0, -1));
  const last = path[path.length - 1];
  if (!parent || last === undefined) return false;
  if (Array.isArray(parent)) {
    const index = arrayIndex(parent, last, false);
    if (index === null) return false;
    parent.splice(index, 1);
    return true;
  }
  if (!Object.hasOwn(parent, last)) return false;
  delete parent[last];
  return true;
}

function containerAt(doc: Record<string, unknown>, path: string[]): Container | null {
  let current: unknown = doc;
  for (const segment of path) {
    if (!isContainer(current)) return null;
    current = childOf(current, segment);
  }
  return isContainer(current) ? current : null;
}

const REMOVED = Symbol("removed");

/**
 * Removes several paths at once. List items are marked first and compacted afterwards so that
 * removing item 1 does not shift item 3 out from under its own removal.
 */
export function removePaths(doc: Record<string, unknown>, paths: string[][]): void {
  const touchedLists = new Set<unknown[]>();
  for (const path of paths) {
    const parent = containerAt(doc, path.slice(0, -1));
    const last = path[path.length - 1];
    if (path.length === 0) {
      for (const key of Object.keys(doc)) delete doc[key];
    } else if (parent && last !== undefined) {
      if (Array.isArray(parent)) {
        const index = arrayIndex(parent, last, false);
        if (index !== null) {
          parent[index] = REMOVED;
          touchedLists.add(parent);
        }
      } else {
        delete parent[last];
      }
    }
  }
  for (const list of touchedLists) {
    const kept = list.filter((item) => item !== REMOVED);
    list.splice(0, list.length, ...kept);
  }
}

/** Refuses values YAML/JSON cannot hold faithfully (functions, symbols, class instances, NaN). */
export function assertPlainData(value: unknown, key: string): void {
  const refuse = (why: string) => {
    throw ConfigValidationError.single(
      key,
      `${key} must be plain data (string, number, boolean, list, mapping): ${why}`,
    );
  };
  const visit = (item: unknown): void => {
    if (item === null || typeof item === "string" || typeof item === "boolean") return;
    if (typeof item === "number") {
      if (!Number.isFinite(item)) refuse(`${item} is not a finite number`);
      return;
    }
    if (Array.isArray(item)) return item.forEach(visit);
    if (typeof item === "object") {
      const proto = Object.getPrototypeOf(item);
      if (proto !== Object.prototype && proto !== null) refuse("found a class instance");
      return Object.values(item).forEach(visit);
    }
    refuse(`found a ${typeof item}`);
  };
  visit(value);
}
