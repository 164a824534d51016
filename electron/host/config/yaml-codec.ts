import { isMap, isScalar, isSeq, parseDocument, stringify, type Document, type Node } from "yaml";
import { ConfigParseError } from "./config-errors.js";

/**
 * Reads `config.yaml` text. Empty text (or only comments) is an empty mapping; anything that is
 * not YAML or not a mapping throws ConfigParseError with the parser's message and line.
 */
export function parseConfigText(text: string): Record<string, unknown> {
  const doc = parseDocument(text, { uniqueKeys: true });
  const firstError = doc.errors[0];
  if (firstError) {
    // The first line holds "<what> at line L, column C"; the rest is a source excerpt.
    throw new ConfigParseError(firstError.message.split("\n")[0]!.replace(/:$/, ""));
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new ConfigParseError(error instanceof Error ? error.message : String(error));
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    const kind = Array.isArray(value) ? "a list" : `a ${typeof value}`;
    throw new ConfigParseError(`the top level is ${kind}, not a mapping of settings`);
  }
  return value as Record<string, unknown>;
}

/**
 * Writes settings as block-style YAML. When the previous text parses, its Document is edited in
 * place so the person's comments, key order and blank lines survive a save — an empty or
 * comments-only file included (its comments stay on top of the first settings written).
 */
export function serializeConfig(value: Record<string, unknown>, previousText: string | null): string {
  if (previousText !== null) {
    const doc = parseDocument(previousText, { uniqueKeys: true });
    if (doc.errors.length === 0 && isMap(doc.contents)) {
      doc.contents = syncNode(doc, doc.contents, value) as typeof doc.contents;
      return doc.toString({ lineWidth: 0 });
    }
    if (doc.errors.length === 0 && isEmptyContents(doc.contents)) {
      // A comments-only file keeps its comments as the header of the settings now written.
      const comments = [doc.commentBefore, commentOf(doc.contents), doc.comment].filter(Boolean).join("\n");
      doc.contents = doc.createNode(value) as typeof doc.contents;
      doc.commentBefore = comments || null;
      doc.comment = null;
      return doc.toString({ lineWidth: 0 });
    }
  }
  return stringify(value, { lineWidth: 0 });
}

/** Nothing at all, or a lone null scalar (`---`, `~`, or only comments). */
function isEmptyContents(contents: unknown): boolean {
  return contents === null || (isScalar(contents) && contents.value === null);
}

function commentOf(contents: unknown): string | null {
  if (!isScalar(contents)) return null;
  return [contents.commentBefore, contents.comment].filter(Boolean).join("\n") || null;
}

/** Returns `node` updated to hold `value`, reusing nodes (and their comments) where it can. */
function syncNode(doc: Document, node: unknown, value: unknown): Node {
  if (isMap(node) && isPlainObject(value)) {
    node.items = node.items.filter((pair) => {
      return isScalar(pair.key) && Object.hasOwn(value, String(pair.key.value));
    });
    for (const [key, child] of Object.entries(value)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
      if (pair) pair.value = syncNode(doc, pair.value, child);
      else node.set(doc.createNode(key), doc.createNode(child));
    }
    return node;
  }
  if (isSeq(node) && Array.isArray(value)) {
    node.items = value.map((child, index) => syncNode(doc, node.items[index], child));
    return node;
  }
  if (isScalar(node) && node.value === value) return node;
  const fresh = doc.createNode(value) as Node;
  if (isScalar(node) || isMap(node) || isSeq(node)) {
    fresh.comment = node.comment;
    fresh.commentBefore = node.commentBefore;
  }
  return fresh;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
