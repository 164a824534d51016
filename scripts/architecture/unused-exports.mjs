/**
 * Exports nothing imports (a knip-style check): every name a file of electron/, renderer/src or
 * plugins/ exports, held against what the whole repository (tests and scripts included) imports
 * of it. `export *`, `import * as` and `import()` count as using all of a file; a file no code
 * imports (an entry, a plugin's module, a bundle's main) is not judged. A build script that loads a
 * compiled module by a path string (`load("sessions/session-store.js")`) uses all of that file.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, posix } from "node:path";
import { execFileSync } from "node:child_process";
import ts from "typescript";
import { layeredFiles, resolveImport } from "./import-graph.mjs";

const codeFile = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

function parse(file, text) {
  const kind = /\.[cm]?js$/.test(file)
    ? ts.ScriptKind.JS
    : file.endsWith("x")
      ? ts.ScriptKind.TSX
      : ts.ScriptKind.TS;
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

const hasExport = (node) => ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export;

/** The names a file exports (not counting re-exports from other files), with their lines. */
function exportsOf(source) {
  const names = new Map();
  const add = (name, node, type = false) =>
    names.set(name, { line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, type });
  for (const st of source.statements) {
    if (ts.isExportAssignment(st)) add("default", st);
    else if (
      ts.isExportDeclaration(st) &&
      !st.moduleSpecifier &&
      st.exportClause &&
      ts.isNamedExports(st.exportClause)
    ) {
      for (const el of st.exportClause.elements) add(el.name.text, el, st.isTypeOnly || el.isTypeOnly);
    } else if (hasExport(st)) {
      const isDefault = ts.getCombinedModifierFlags(st) & ts.ModifierFlags.Default;
      if (isDefault) add("default", st);
      else if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) add(d.name.text, d);
      } else if (st.name && ts.isIdentifier(st.name))
        add(st.name.text, st, ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st));
    }
  }
  return names;
}

/** Every file git knows (tracked or not ignored); outside a git checkout, the layered files. */
function listedFiles(root) {
  try {
    return execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).split("\n");
  } catch {
    return layeredFiles(root);
  }
}

/** [{ file, name, line, type }] for every export nothing imports (`type`: an interface or type alias). */
export function unusedExports(root) {
  const product = new Set(layeredFiles(root));
  const everything = listedFiles(root).filter(
    (f) => codeFile.test(f) && !f.startsWith("node_modules/") && existsSync(join(root, f)),
  );
  const used = new Map(); // file → Set of names, or "all"
  const use = (file, name) => {
    if (!product.has(file)) return;
    const set = used.get(file) ?? new Set();
    set.add(name);
    used.set(file, set);
  };
  const exists = (p) => existsSync(join(root, p));
  const tails = new Map(); // "sessions/session-store.js" → product file
  for (const f of product) {
    const parts = f.replace(/\.tsx?$/, ".js").split("/");
    for (let i = 1; i < parts.length; i++) tails.set(parts.slice(i).join("/"), f);
  }
  for (const file of everything) {
    const source = parse(file, readFileSync(join(root, file), "utf8"));
    const target = (spec) => resolveImport(root, file, spec, exists);
    const visit = (node) => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const to = target(node.moduleSpecifier.text);
        const clause = node.importClause;
        if (to && clause) {
          if (clause.name) use(to, "default");
          const bindings = clause.namedBindings;
          if (bindings && ts.isNamespaceImport(bindings)) use(to, "*");
          else if (bindings) for (const el of bindings.elements) use(to, (el.propertyName ?? el.name).text);
        }
      } else if (
        ts.isExportDeclaration(node) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        const to = target(node.moduleSpecifier.text);
        if (to && node.exportClause && ts.isNamedExports(node.exportClause)) {
          for (const el of node.exportClause.elements) use(to, (el.propertyName ?? el.name).text);
        } else if (to) use(to, "*");
      } else if (
        ts.isStringLiteralLike(node) &&
        !ts.isImportDeclaration(node.parent) &&
        !ts.isExportDeclaration(node.parent) &&
        !ts.isLiteralTypeNode(node.parent)
      ) {
        // import("./x.js"), vi.mock("./x.js"), new URL("./x.js", …), or a compiled module's path.
        const to = /^\.\.?\//.test(node.text) ? target(node.text) : null;
        if (to) use(to, "*");
        else {
          const tail = node.text.replace(/^.*?\/out\/electron\/host\//, "").replace(/^\.?\//, "");
          const hit = tails.get(tail);
          if (hit && /\.js$/.test(node.text)) use(hit, "*");
        }
      } else if (
        ts.isImportTypeNode(node) &&
        ts.isLiteralTypeNode(node.argument) &&
        ts.isStringLiteral(node.argument.literal)
      ) {
        const to = target(node.argument.literal.text);
        const name = node.qualifier && ts.isIdentifier(node.qualifier) ? node.qualifier.text : "*";
        if (to) use(to, name);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const out = [];
  for (const file of product) {
    const set = used.get(file);
    if (!set || set.has("*")) continue;
    for (const [name, { line, type }] of exportsOf(parse(file, readFileSync(join(root, file), "utf8")))) {
      if (!set.has(name)) out.push({ file, name, line, type });
    }
  }
  return out;
}

// `node scripts/architecture/unused-exports.mjs`: the list; `--baseline`: write today's unused
// exported values to unused-exports-baseline.json (the ESLint rule fails on any other).
if (import.meta.url === `file://${process.argv[1]}`) {
  const root = join(posix.dirname(process.argv[1]), "..", "..");
  const found = unusedExports(root);
  if (process.argv.includes("--baseline")) {
    const baseline = {};
    for (const u of found) if (!u.type) (baseline[u.file] ??= []).push(u.name);
    writeFileSync(
      join(root, "scripts/architecture/unused-exports-baseline.json"),
      `${JSON.stringify(baseline, null, 2)}\n`,
    );
    console.log(`Baseline: ${found.filter((u) => !u.type).length} exported values nothing imports.`);
  } else {
    for (const u of found) console.log(`${u.file}:${u.line} ${u.name}${u.type ? " (type)" : ""}`);
  }
}
