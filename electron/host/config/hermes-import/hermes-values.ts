/**
 * Reading Hermes values of the expected type: a value of the wrong type under a key the import
 * reads refuses the whole import (docs/contract.md §3.1) with a message naming the key; nothing is
 * guessed.
 */
import { HermesImportError } from "./import-errors.js";

export type HermesMap = Record<string, unknown>;

export function isMap(value: unknown): value is HermesMap {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return "empty";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `a ${typeof value} (${JSON.stringify(value)})`;
}

function wrongType(key: string, expected: string, value: unknown): HermesImportError {
  return new HermesImportError(
    `${key} in the Hermes config must be ${expected}, but it is ${kindOf(value)}. Fix it in Hermes (or remove it) and import again.`,
    key,
  );
}

/** A mapping, or undefined when absent or empty (`key:` with nothing after it). */
export function optionalMap(value: unknown, key: string): HermesMap | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isMap(value)) throw wrongType(key, "a mapping (key: value lines)", value);
  return value;
}

export function optionalList(value: unknown, key: string): unknown[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw wrongType(key, "a list (lines starting with -)", value);
  return value;
}

export function optionalString(value: unknown, key: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw wrongType(key, "text", value);
  return value;
}

export function optionalNumber(value: unknown, key: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value)) throw wrongType(key, "a number", value);
  return value;
}

export function optionalBoolean(value: unknown, key: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw wrongType(key, "true or false", value);
  return value;
}

export function stringList(value: unknown, key: string): string[] | undefined {
  const list = optionalList(value, key);
  return list?.map((item, index) => {
    if (typeof item !== "string") throw wrongType(`${key}[${index}]`, "text", item);
    return item;
  });
}

/** `${NAME}` / `${env:NAME}` as a whole value: the variable it names, else null. */
export function envReference(value: string): string | null {
  const match = /^\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value.trim());
  return match ? match[1]! : null;
}
