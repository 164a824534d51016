/**
 * Host rules the renderer writes again: a string of at least 12 characters, a regular expression
 * of 8 characters or more, or a named constant number of 3 digits or more, that stands both in renderer code and in the host's runtime
 * (electron/host outside the contract) and that
 * the contract does not hold (method and event names, reasons and setting keys are typed by it). The renderer should take such a value
 * from the contract (electron/host/rpc), which both sides import, instead of a copy. A heuristic
 * for the architecture report: each hit is a place to look, not a verdict.
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

function literalsOf(file, text) {
  const kind = file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found = new Map();
  const add = (key, node) => {
    if (!found.has(key)) found.set(key, source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
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
      if (value.length >= 3 && !ignoredNumbers.has(value) && named) add(`number ${value}`, node);
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
  const renderer = [];
  for (const file of files) {
    const layer = layerOf(file)?.name;
    if (!layer || layer === "plugin-sdk") continue;
    const text = readFileSync(join(root, file), "utf8");
    if (layer === "contract") for (const value of literalsOf(file, text).keys()) contract.add(value);
    else if (layer === "renderer") renderer.push([file, literalsOf(file, text)]);
    else {
      for (const [value, line] of literalsOf(file, text))
        if (!host.has(value)) host.set(value, `${file}:${line}`);
    }
  }
  const hits = [];
  for (const [file, literals] of renderer) {
    for (const [value, line] of literals) {
      // A value the contract holds (a method or event name, a reason, a setting key) is typed by it.
      if (host.has(value) && !contract.has(value))
        hits.push({ value, renderer: `${file}:${line}`, host: host.get(value) });
    }
  }
  return hits;
}
