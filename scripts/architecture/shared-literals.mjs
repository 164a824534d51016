/**
 * Host rules the renderer writes again: a string of at least 12 characters, a regular expression
 * of 8 characters or more, or a named constant number of 3 digits or more, that stands both in renderer code and in the host's runtime
 * (electron/host outside the contract) and that
 * the contract does not hold (method and event names, reasons and setting keys are typed by it). The renderer should take such a value
 * from the contract (electron/host/rpc), which both sides import, instead of a copy. A heuristic
 * for the architecture report: each hit is a place to look, not a verdict.
 *
 * Taught by its false positives (issue 31): a key the contract's types or schemas name (a setting
 * path like "display.busy_input_mode", an `mcp_servers` field like "secret_headers") is typed by the
 * contract though it is no literal there, so it is no copy; and two named numbers are one rule only
 * when their names share a word (4000 as a Markdown block limit and as a log line's length are
 * not one rule; units like MS or MAX do not count as shared words).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { layerOf, layeredFiles } from "./import-graph.mjs";

/** Values too common to mean a rule (HTTP bits, sizes every UI uses). */
const ignoredNumbers = new Set([
  "100",
  "1000",
  "200",
  "400",
  "404",
  "500",
  "250",
  "300",
  "150",
  "120",
  "110",
]);

/** Words of a constant's name that say only its unit or kind, not which rule it is. */
const unitWords = new Set(["ms", "max", "min", "limit", "default", "bytes", "count", "size", "seconds"]);
const nameWords = (name) =>
  new Set(
    name
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w && !unitWords.has(w)),
  );
const shareAWord = (a, b) => [...nameWords(a)].some((w) => nameWords(b).has(w));

/** The property names a file's types and objects declare (the keys the contract types). */
function keysOf(file, text) {
  const kind = file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const keys = new Set();
  const visit = (node) => {
    if (
      (ts.isPropertySignature(node) || ts.isPropertyAssignment(node)) &&
      node.name &&
      (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))
    )
      keys.add(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return keys;
}

function literalsOf(file, text) {
  const kind = file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found = new Map();
  const add = (key, node, name = null) => {
    if (!found.has(key))
      found.set(key, { line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, name });
  };
  const visit = (node) => {
    const parent = node.parent;
    const isModuleName =
      parent &&
      (ts.isImportDeclaration(parent) ||
        ts.isExportDeclaration(parent) ||
        (ts.isCallExpression(parent) && parent.expression.kind === ts.SyntaxKind.ImportKeyword));
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && !isModuleName) {
      if (node.text.length >= 12 && !node.text.startsWith("./") && !node.text.startsWith("../"))
        add(`string ${JSON.stringify(node.text)}`, node);
    } else if (ts.isRegularExpressionLiteral(node)) {
      if (node.text.length >= 8) add(`regex ${node.text}`, node);
    } else if (ts.isNumericLiteral(node)) {
      const value = String(Number(node.text.replace(/_/g, "")));
      const named = parent && ts.isVariableDeclaration(parent) && parent.initializer === node;
      if (value.length >= 3 && !ignoredNumbers.has(value) && named)
        add(`number ${value}`, node, parent.name.getText(source));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** [{ value, renderer: "file:line", host: "file:line" }] */
export function rendererCopiesOfHostRules(root) {
  const files = layeredFiles(root).filter((f) => /\.(ts|tsx)$/.test(f));
  const host = new Map();
  const contract = new Set();
  const contractKeys = new Set();
  const renderer = [];
  for (const file of files) {
    const layer = layerOf(file)?.name;
    if (!layer || layer === "plugin-sdk") continue;
    const text = readFileSync(join(root, file), "utf8");
    if (layer === "contract") {
      for (const value of literalsOf(file, text).keys()) contract.add(value);
      for (const key of keysOf(file, text)) contractKeys.add(key);
    } else if (layer === "renderer") renderer.push([file, literalsOf(file, text)]);
    else {
      for (const [value, { line, name }] of literalsOf(file, text)) {
        const places = host.get(value) ?? [];
        places.push({ at: `${file}:${line}`, name });
        host.set(value, places);
      }
    }
  }
  // A key (or a dotted path of keys, as settings are named) that the contract's types declare.
  const typedByContract = (value) => {
    const text = value.match(/^string "(.*)"$/)?.[1];
    return text !== undefined && text.split(".").every((part) => contractKeys.has(part));
  };
  const hits = [];
  for (const [file, literals] of renderer) {
    for (const [value, { line, name }] of literals) {
      // A value the contract holds (a method or event name, a reason, a setting key) is typed by it.
      if (!host.has(value) || contract.has(value) || typedByContract(value)) continue;
      const places = host.get(value).filter((h) => name === null || (h.name && shareAWord(name, h.name)));
      if (places.length) hits.push({ value, renderer: `${file}:${line}`, host: places[0].at });
    }
  }
  return hits;
}
