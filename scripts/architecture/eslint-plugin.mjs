/**
 * ESLint's side of the layer order (scripts/architecture/layers.mjs): `architecture/layers` reports
 * every import that points up the layers (or out of a layer's `mayImport`) and every import that
 * closes a cycle of files. Cycles need the whole graph, so it is read from disk once per ESLint run
 * (scripts/architecture/import-graph.mjs); a file's own imports are checked from the text linted.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import {
  buildGraph,
  importCycles,
  layerOf,
  layerViolation,
  repoRelative,
  resolveImport,
} from "./import-graph.mjs";
import { unusedExports } from "./unused-exports.mjs";

const cyclesByRoot = new Map();
const unusedByRoot = new Map();

/** file → its exported values nothing imports and the baseline does not list. */
function unusedOf(root) {
  let found = unusedByRoot.get(root);
  if (!found) {
    const baselineFile = join(root, "scripts/architecture/unused-exports-baseline.json");
    const baseline = existsSync(baselineFile) ? JSON.parse(readFileSync(baselineFile, "utf8")) : {};
    found = new Map();
    for (const u of unusedExports(root)) {
      if (u.type || (baseline[u.file] ?? []).includes(u.name)) continue;
      found.set(u.file, [...(found.get(u.file) ?? []), u]);
    }
    unusedByRoot.set(root, found);
  }
  return found;
}

/** Where a relative module name points, as a source path, whether or not the file is there. */
function plannedPath(from, spec) {
  if (!spec.startsWith("./") && !spec.startsWith("../")) return null;
  return posix.normalize(posix.join(posix.dirname(from), spec)).replace(/\.(js|mjs|cjs)$/, ".ts");
}

/** file → the cycle it stands in (its members and one loop), for the tree under root. */
function cyclesOf(root) {
  let found = cyclesByRoot.get(root);
  if (!found) {
    found = new Map();
    for (const cycle of importCycles(buildGraph(root))) for (const f of cycle.members) found.set(f, cycle);
    cyclesByRoot.set(root, found);
  }
  return found;
}

const layersRule = {
  meta: {
    type: "problem",
    docs: {
      description: "Imports follow the layer order of scripts/architecture/layers.mjs and form no cycle.",
    },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const file = repoRelative(root, context.filename);
    if (!layerOf(file)) return {};
    const check = (node, source) => {
      if (!source || typeof source.value !== "string") return;
      // A file that does not exist (yet) still has a layer: its path decides.
      const to = resolveImport(root, file, source.value) ?? plannedPath(file, source.value);
      if (!to) return;
      const why = layerViolation(file, to);
      if (why) context.report({ node, message: why });
      const cycle = cyclesOf(root).get(file);
      if (cycle && cycle.members.includes(to)) {
        context.report({
          node,
          message:
            `Import cycle: ${cycle.loop.join(" → ")}. Move what both need into one of them (or below both), ` +
            `or let one own an interface the other fills in.`,
        });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source.type === "Literal" ? node.source : null),
      CallExpression: (node) => {
        if (
          node.callee.type === "Identifier" &&
          node.callee.name === "require" &&
          node.arguments[0]?.type === "Literal"
        )
          check(node, node.arguments[0]);
      },
    };
  },
};

const unusedExportsRule = {
  meta: {
    type: "suggestion",
    docs: { description: "An exported value something imports (tests and scripts count)." },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const file = repoRelative(root, context.filename);
    // Text linted for a file that is not on disk (an editor's new buffer, a test) has no importers yet.
    if (!layerOf(file) || !existsSync(context.filename)) return {};
    return {
      Program(node) {
        for (const u of unusedOf(root).get(file) ?? []) {
          context.report({
            node,
            loc: { line: u.line, column: 0 },
            message:
              `"${u.name}" is exported but nothing imports it: drop the export (or the code). ` +
              `Old ones wait in scripts/architecture/unused-exports-baseline.json.`,
          });
        }
      },
    };
  },
};

export const architecture = {
  meta: { name: "architecture" },
  rules: { layers: layersRule, "unused-exports": unusedExportsRule },
};
