#!/usr/bin/env node
// The house measured the same way each time (issue 31's before/after): files per folder, the largest
// folders, folders over 15 files, upward imports and import cycles under the layer order
// (scripts/architecture/layers.mjs), and the renderer's copies of host rules.
//   node scripts/architecture-report.mjs            a Markdown summary
//   node scripts/architecture-report.mjs --details  with every folder, import, cycle and copy
//   node scripts/architecture-report.mjs --json     the figures for machines
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildGraph, importCycles, layeredFiles, upwardImports } from "./architecture/import-graph.mjs";
import { rendererCopiesOfHostRules } from "./architecture/shared-literals.mjs";
import { unusedExports } from "./architecture/unused-exports.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = new Set(process.argv.slice(2));
const unknown = [...args].filter((a) => !["--details", "--json"].includes(a));
if (unknown.length) {
  console.error(`Unknown option ${unknown.join(" ")}: use --details or --json (or nothing).`);
  process.exit(2);
}

/** A folder is "too big" past this many files of its own. */
const roomLimit = 15;

export function measure() {
  const files = layeredFiles(root);
  const folders = new Map();
  for (const file of files) {
    const folder = dirname(file);
    const entry = folders.get(folder) ?? { folder, files: 0, lines: 0 };
    entry.files += 1;
    entry.lines += readFileSync(join(root, file), "utf8").split("\n").length;
    folders.set(folder, entry);
  }
  const byFiles = [...folders.values()].sort((a, b) => b.files - a.files || b.lines - a.lines);
  const graph = buildGraph(root, { files });
  const upward = upwardImports(graph);
  const cycles = importCycles(graph);
  const runtimeCycles = importCycles(graph, { includeTypes: false });
  const copies = rendererCopiesOfHostRules(root);
  const unused = unusedExports(root);
  return {
    files: files.length,
    folders: byFiles,
    largest: byFiles[0],
    overLimit: byFiles.filter((f) => f.files > roomLimit),
    upward,
    cycles,
    runtimeCycles,
    copies,
    unusedValues: unused.filter((u) => !u.type),
    unusedTypes: unused.filter((u) => u.type),
  };
}

const m = measure();
if (args.has("--json")) {
  console.log(JSON.stringify(m, null, 2));
} else {
  const row = (label, value) => console.log(`| ${label} | ${value} |`);
  console.log("| measure | value |\n| --- | --- |");
  row("code files in electron/, renderer/src/, plugins/", m.files);
  row("folders", m.folders.length);
  row(
    "largest folder (files of its own)",
    `${m.largest.folder}: ${m.largest.files} files, ${m.largest.lines} lines`,
  );
  row(
    `folders over ${roomLimit} files`,
    `${m.overLimit.length}${m.overLimit.length ? `: ${m.overLimit.map((f) => `${f.folder} (${f.files})`).join(", ")}` : ""}`,
  );
  row("upward imports", m.upward.length);
  row("import cycles (with `import type`)", m.cycles.length);
  row("import cycles (run time only)", m.runtimeCycles.length);
  row("renderer copies of host rules (places to look)", m.copies.length);
  row("exports nothing imports: values / types", `${m.unusedValues.length} / ${m.unusedTypes.length}`);
  if (args.has("--details")) {
    console.log("\nFolders (files, lines):");
    for (const f of m.folders)
      console.log(`  ${String(f.files).padStart(3)} ${String(f.lines).padStart(6)}  ${f.folder}`);
    console.log("\nUpward imports:");
    for (const u of m.upward) console.log(`  ${u.from}:${u.line} → ${u.to}${u.typeOnly ? " (types)" : ""}`);
    console.log("\nImport cycles:");
    for (const c of m.cycles) console.log(`  ${c.loop.join(" → ")}`);
    console.log("\nRenderer copies of host rules:");
    for (const c of m.copies) console.log(`  ${c.value}: ${c.renderer} ~ ${c.host}`);
  }
}
