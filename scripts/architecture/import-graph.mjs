/**
 * The import graph of the layered code (scripts/architecture/layers.mjs), read with the TypeScript
 * parser: static imports and re-exports, `import type`, dynamic `import("…")` and `require("…")`
 * with a literal name. Only relative imports are followed (packages are ESLint's no-restricted-imports
 * business). Used by the ESLint layering rule, the architecture report and the room-move script.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";
import ts from "typescript";
import { layeredRoots, layers } from "./layers.mjs";

const codeFile = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const toPosix = (p) => p.split(sep).join("/");

/** Every code file under the layered roots, as repo-relative posix paths. */
export function layeredFiles(root) {
  const out = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(join(root, dir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else if (codeFile.test(entry.name)) out.push(path);
    }
  };
  for (const r of layeredRoots) walk(r);
  return out.sort();
}

/** The module names a file imports, each with whether it brings types only and its line (1-based). */
export function importsOf(fileName, text) {
  const kind = fileName.endsWith("x")
    ? ts.ScriptKind.TSX
    : fileName.match(/\.[cm]?js$/)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const found = [];
  const add = (node, spec, typeOnly) =>
    found.push({
      spec,
      typeOnly,
      line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
    });
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node, node.moduleSpecifier.text, typeOnly);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node, node.moduleSpecifier.text, node.isTypeOnly);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      add(node, node.moduleReference.expression.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.arguments.length >= 1 &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      const isDynamicImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === "require";
      if (isDynamicImport || isRequire) add(node, node.arguments[0].text, false);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      add(node, node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The repo-relative file a relative import names, or null (a package, or a file that is not code). */
export function resolveImport(root, from, spec, exists = (p) => existsSync(join(root, p))) {
  if (!spec.startsWith("./") && !spec.startsWith("../")) return null;
  const base = posix.normalize(posix.join(posix.dirname(from), spec));
  const stem = base.replace(/\.(js|jsx|mjs|cjs)$/, "");
  const candidates = [base];
  if (stem !== base) candidates.push(`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.cts`);
  else candidates.push(`${base}.ts`, `${base}.tsx`, `${base}.js`, `${base}/index.ts`, `${base}/index.js`);
  return candidates.find((c) => codeFile.test(c) && exists(c)) ?? null;
}

/** The layer a repo-relative path belongs to (longest matching path), or null outside the layers. */
export function layerOf(path) {
  let best = null;
  let bestLength = -1;
  layers.forEach((layer, rank) => {
    for (const p of layer.paths) {
      const hit = p.endsWith("/") ? path.startsWith(p) : path === p;
      if (hit && p.length > bestLength) {
        best = { ...layer, rank };
        bestLength = p.length;
      }
    }
  });
  return best;
}

/** Why `from` may not import `to` under the layer order, or null when it may. */
export function layerViolation(from, to) {
  const a = layerOf(from);
  const b = layerOf(to);
  if (!a || !b || a.name === b.name) return null;
  if (a.mayImport) {
    if (a.mayImport.includes(b.name)) return null;
    return `Layer "${a.name}" (${from}) may import only ${a.mayImport.map((n) => `"${n}"`).join(", ")}, not "${b.name}" (${to}).`;
  }
  if (b.rank > a.rank || b.mayImport) {
    return (
      `Upward import: "${a.name}" (${from}) may not import "${b.name}" (${to}), which stands above it ` +
      `(scripts/architecture/layers.mjs). Let the lower layer own an interface and pass the upper part in.`
    );
  }
  return null;
}

/**
 * The graph: file → its resolved imports. `readText` may stand in for the disk (tests, a file being
 * edited); `files` likewise.
 */
export function buildGraph(root, { files = layeredFiles(root), readText } = {}) {
  const read = readText ?? ((f) => readFileSync(join(root, f), "utf8"));
  const known = new Set(files);
  const exists = (p) =>
    known.has(p) || (!readText && existsSync(join(root, p)) && statSync(join(root, p)).isFile());
  const graph = new Map();
  for (const file of files) {
    const edges = [];
    for (const imp of importsOf(file, read(file))) {
      const to = resolveImport(root, file, imp.spec, exists);
      if (to && known.has(to)) edges.push({ ...imp, to });
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Every import that breaks the layer order. */
export function upwardImports(graph) {
  const out = [];
  for (const [from, edges] of graph) {
    for (const e of edges) {
      const why = layerViolation(from, e.to);
      if (why) out.push({ from, to: e.to, line: e.line, typeOnly: e.typeOnly, why });
    }
  }
  return out;
}

/**
 * The import cycles: strongly connected groups of files (Tarjan), each with one loop through it to
 * show. `includeTypes: false` ignores `import type` edges (they vanish at run time).
 */
export function importCycles(graph, { includeTypes = true } = {}) {
  const next = (f) => (graph.get(f) ?? []).filter((e) => includeTypes || !e.typeOnly).map((e) => e.to);
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const strong = (v) => {
    // Iterative Tarjan: deep chains of imports must not overflow the call stack.
    const work = [{ v, i: 0, succ: next(v) }];
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    while (work.length) {
      const top = work[work.length - 1];
      if (top.i < top.succ.length) {
        const w = top.succ[top.i++];
        if (!indices.has(w)) {
          indices.set(w, index);
          low.set(w, index++);
          stack.push(w);
          onStack.add(w);
          work.push({ v: w, i: 0, succ: next(w) });
        } else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v), indices.get(w)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].v;
        low.set(parent, Math.min(low.get(parent), low.get(top.v)));
      }
      if (low.get(top.v) === indices.get(top.v)) {
        const group = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          group.push(w);
        } while (w !== top.v);
        if (group.length > 1 || next(top.v).includes(top.v)) groups.push(group.sort());
      }
    }
  };
  for (const f of graph.keys()) if (!indices.has(f)) strong(f);
  return groups.map((members) => ({ members, loop: loopThrough(members, next) }));
}

/** One shortest loop from the group's first file back to itself, as a list of files. */
function loopThrough(members, next) {
  const inGroup = new Set(members);
  const start = members[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of next(v)) {
      if (!inGroup.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== null && u !== start; u = previous.get(u)) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

export const repoRelative = (root, absolute) => toPosix(relative(root, absolute));
export { dirname };
