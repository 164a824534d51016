#!/usr/bin/env node
// Cuts the flat folders into rooms (issue 31) from the plan in scripts/rooms/plan.mjs: `git mv` of
// each file, then every reference to a moved file rewritten across the repository — relative
// module names in code (imports, re-exports, import(), require(), vi.mock(), new URL(…)), tests
// included, and repo paths in text (comments, docs, configs, scripts) — and a README.md per room.
// Made to be run again on a newer main: files already in their room are left alone, files a room
// names that are gone are skipped, files a folder gained that no room names stay where they are;
// both are listed. A room may itself be a plan's folder (sessions/store): it is cut the same way.
// A README is written where a folder's files change or where there is none; one that exists is
// kept otherwise (a room moved on an earlier run keeps the README written then).
//
//   node scripts/move-rooms.mjs --dry-run   what would move and which files would change
//   node scripts/move-rooms.mjs --readmes   only the READMEs folders lack (of folders no move touches)
//   node scripts/move-rooms.mjs             do it (needs a clean work tree), then check:
//   npx tsc -p tsconfig.json --noEmit && npx tsc -p renderer/tsconfig.json --noEmit &&
//   npx tsc -p test/renderer/tsconfig.json --noEmit && npx eslint . && npx prettier --check .
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { buildGraph } from "./architecture/import-graph.mjs";
import { folders, plan } from "./rooms/plan.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const dryRun = args.includes("--dry-run");
const readmesOnly = args.includes("--readmes");
const unknown = args.filter((a) => a !== "--dry-run" && a !== "--readmes");
if (unknown.length) fail(`Unknown option ${unknown.join(" ")}: use --dry-run, --readmes or nothing.`);

function fail(message) {
  console.error(message);
  process.exit(1);
}
const git = (...a) => execFileSync("git", a, { cwd: root, encoding: "utf8" });

if (!dryRun && !readmesOnly && git("status", "--porcelain").trim()) {
  fail("The work tree has changes: commit them first, so the move is one commit you can look at (or undo).");
}

// 1. The moves: old repo path → new repo path.
const moves = new Map();
const skipped = [];
let alreadyInPlace = 0;
const stay = [];
const readmes = [];
for (const folder of plan) {
  const named = new Set();
  for (const [room, spec] of Object.entries(folder.rooms)) {
    const roomDir = posix.normalize(posix.join(folder.folder, room));
    readmes.push({ dir: roomDir, spec, parent: folder.folder });
    for (const file of spec.files) {
      named.add(file);
      const from = `${folder.folder}/${file}`;
      if (!existsSync(join(root, from))) {
        if (existsSync(join(root, roomDir, file))) alreadyInPlace += 1;
        else skipped.push(from);
        continue;
      }
      moves.set(from, `${roomDir}/${file}`);
    }
  }
  readmes.push({ dir: folder.folder, spec: folder, parent: null });
  const here = git("ls-files", folder.folder)
    .split("\n")
    .filter((f) => f && posix.dirname(f) === folder.folder && /\.(ts|tsx)$/.test(f));
  const staying = new Set(folder.stays ?? []);
  for (const f of here) if (!named.has(posix.basename(f)) && !staying.has(posix.basename(f))) stay.push(f);
}
// The folders no plan cuts get a README of the same shape.
for (const f of folders) readmes.push({ dir: f.folder, spec: f, parent: null });
for (const to of moves.values()) {
  if (existsSync(join(root, to)))
    fail(`${to} exists already: has the move been run? (git log) Nothing was changed.`);
}

// 2. Every tracked text file: module names in code, repo paths in text.
const tracked = git("ls-files", "--cached", "--others", "--exclude-standard")
  .split("\n")
  .filter(
    (f) => f && !f.startsWith("node_modules/") && f !== "package-lock.json" && existsSync(join(root, f)),
  );
const codeFile = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
const textFile = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx|json|md|yaml|yml|html|css|txt)$/;
const newPathOf = (p) => moves.get(p) ?? p;
const isFile = (p) => existsSync(join(root, p)) && statSync(join(root, p)).isFile();

/** The file a relative module name points at in today's tree, with how it was spelled. */
function resolveSpec(from, spec) {
  const [path, query = ""] = spec.split(/(?=[?#])/);
  const base = posix.normalize(posix.join(posix.dirname(from), path));
  if (isFile(base)) return { target: base, style: "exact", query };
  const stem = base.replace(/\.(js|jsx|mjs|cjs)$/, "");
  if (stem !== base) {
    for (const ext of [".ts", ".tsx", ".mts", ".cts"])
      if (isFile(stem + ext)) return { target: stem + ext, style: "js", query };
  }
  for (const ext of [".ts", ".tsx", ".js", ".mjs"])
    if (isFile(base + ext)) return { target: base + ext, style: "bare", query };
  return null;
}

function specFor(fromNew, targetNew, style, query) {
  let rel = posix.relative(posix.dirname(fromNew), targetNew);
  if (!rel.startsWith(".")) rel = `./${rel}`;
  if (style === "js")
    rel = rel.replace(
      /\.(ts|tsx|mts|cts)$/,
      (e) => ({ ".ts": ".js", ".tsx": ".js", ".mts": ".mjs", ".cts": ".cjs" })[e],
    );
  if (style === "bare") rel = rel.replace(/\.(ts|tsx|js|mjs)$/, "");
  return rel + query;
}

function rewriteModuleNames(file, text) {
  const kind = /\.[cm]?jsx?$/.test(file)
    ? ts.ScriptKind.JS
    : file.endsWith("x")
      ? ts.ScriptKind.TSX
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const edits = [];
  const visit = (node) => {
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      /^\.\.?\//.test(node.text)
    ) {
      const found = resolveSpec(file, node.text);
      if (found && (moves.has(found.target) || moves.has(file))) {
        const next = specFor(newPathOf(file), newPathOf(found.target), found.style, found.query);
        if (next !== node.text)
          edits.push({ start: node.getStart(source) + 1, end: node.getEnd() - 1, text: next });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  edits.sort((a, b) => b.start - a.start);
  for (const e of edits) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  return text;
}

// Repo paths in text: the whole path first, then each shorter tail down to the path from the
// folder's parent ("host/sessions/store/migrations.ts", "sessions/store/migrations.ts",
// "store/migrations.ts" in docs and comments), with .ts or the .js it is imported as.
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const pathForms = [];
for (const [from, to] of moves) {
  const variants = [[from, to]];
  if (/\.tsx?$/.test(from)) variants.push([from.replace(/\.tsx?$/, ".js"), to.replace(/\.tsx?$/, ".js")]);
  for (const [f, t] of variants) {
    pathForms.push({ re: new RegExp(`(?<![\\w.-])${escape(f)}(?![\\w/-])`, "g"), to: t });
    // Each tail of two parts or more: the folder and file as docs name them from any folder above.
    const fromParts = f.split("/");
    const toParts = t.split("/");
    for (let drop = 1; drop <= fromParts.length - 2; drop++) {
      const shortFrom = fromParts.slice(drop).join("/");
      const shortTo = toParts.slice(drop).join("/");
      pathForms.push({ re: new RegExp(`(?<![\\w./-])${escape(shortFrom)}(?![\\w/-])`, "g"), to: shortTo });
    }
  }
}
const rewritePaths = (text) => pathForms.reduce((t, { re, to }) => t.replace(re, to), text);

// This script and its plan name today's paths on purpose: they are left as they are.
const selfFiles = new Set(["scripts/move-rooms.mjs", "scripts/rooms/plan.mjs"]);
const changed = new Map();
for (const file of tracked) {
  if (!textFile.test(file) || selfFiles.has(file)) continue;
  const before = readFileSync(join(root, file), "utf8");
  let after = codeFile.test(file) ? rewriteModuleNames(file, before) : before;
  after = rewritePaths(after);
  if (after !== before) changed.set(file, after);
}

// 3. The READMEs: owns, may import, and each file with the first line of its opening comment.
function firstLine(path) {
  const text = readFileSync(join(root, path), "utf8");
  const block = text.match(/^\s*\/\*\*?([\s\S]*?)\*\//)?.[1] ?? text.match(/^(?:\s*\/\/.*\n)+/)?.[0] ?? "";
  const words = block
    .split("\n")
    .map((l) => l.replace(/^\s*(\*|\/\/)\s?/, "").trim())
    .join(" ")
    .trim();
  // The first sentence: up to a full stop, never one inside a code span.
  const sentence = words.match(/^(?:`[^`]*`|[^`])*?\.(?=\s|$)/)?.[0] ?? words;
  return sentence.length > 160 ? `${sentence.slice(0, 157)}…` : sentence;
}
// What each room imports of its sibling rooms, read from today's code with the moves applied.
const graph = buildGraph(root);
const roomEdges = new Set();
for (const [from, edges] of graph) {
  for (const e of edges) {
    const a = posix.dirname(newPathOf(from));
    const b = posix.dirname(newPathOf(e.to));
    if (a !== b) roomEdges.add(`${a}\n${b}`);
  }
}
const siblingLinks = (dir, parent) => {
  const siblings = [parent, ...readmes.filter((r) => r.parent === parent).map((r) => r.dir)].filter(
    (d) => d !== dir,
  );
  const name = (d) =>
    d === parent ? `${posix.basename(parent)}/ (its root)` : `${posix.relative(parent, d)}/`;
  const uses = siblings.filter((d) => roomEdges.has(`${dir}\n${d}`)).map(name);
  const usedBy = siblings.filter((d) => roomEdges.has(`${d}\n${dir}`)).map(name);
  return [
    `**Imports, of ${posix.basename(parent)}/'s other rooms (today):** ${uses.join(", ") || "none"}.`,
    "",
    `**Imported by:** ${usedBy.join(", ") || "none of them"}.`,
  ];
};

/** A folder as the docs name it: from the host, the renderer's src or the shell. */
const shortDir = (dir) => dir.replace(/^(electron\/host|renderer\/src|electron)\//, "");

function readmeFor({ dir, spec, parent }) {
  const title = `# ${shortDir(dir)}`;
  const inRoom = [...moves].filter(([, to]) => posix.dirname(to) === dir);
  // A room moved on an earlier run has no moves left: its files are those it holds.
  const own = inRoom.length
    ? inRoom.map(([from, to]) => [posix.basename(to), firstLine(from)])
    : tracked
        .filter((f) => posix.dirname(f) === dir && /\.(ts|tsx|css)$/.test(f) && !moves.has(f))
        .map((f) => [posix.basename(f), firstLine(f)]);
  // Its rooms: the plan's, and the sub-folders it has already.
  const rooms = parent
    ? []
    : [
        ...new Set([
          ...readmes.filter((r) => r.parent === dir).map((r) => posix.relative(dir, r.dir)),
          ...tracked
            .filter((f) => f.startsWith(`${dir}/`) && /\.(ts|tsx|css)$/.test(f))
            .map((f) => posix.relative(dir, newPathOf(f)).split("/"))
            .filter((parts) => parts.length > 1)
            .map((parts) => parts[0]),
        ]),
      ]
        .filter((r) => !r.startsWith(".."))
        .sort();
  return [
    title,
    "",
    `**Owns:** ${spec.owns}`,
    "",
    ...(parent ? siblingLinks(dir, parent) : [`**May import:** ${spec.mayImport}`]),
    "",
    "The layer order it stands in is scripts/architecture/layers.mjs (see docs/ARCHITECTURE.md).",
    ...(rooms.length ? ["", "## Rooms", "", ...rooms.map((r) => `- [${r}/](${r}/README.md)`)] : []),
    ...(own.length
      ? ["", "## Files", "", ...own.map(([name, line]) => `- \`${name}\`${line ? `: ${line}` : ""}`)]
      : []),
    "",
  ].join("\n");
}

// One README per folder: a plan's own entry for a folder wins over the room of the same path
// (sessions/store is a room of sessions/ and a folder with rooms of its own). Written where files
// move in or out, or where there is none yet.
const readmeByDir = new Map();
for (const r of readmes) if (!readmeByDir.has(r.dir) || !r.parent) readmeByDir.set(r.dir, r);
const touched = new Set([...moves].flatMap(([from, to]) => [posix.dirname(from), posix.dirname(to)]));
const toWrite = [...readmeByDir.values()].filter(
  (r) => touched.has(r.dir) || !existsSync(join(root, r.dir, "README.md")),
);

console.log(
  `${moves.size} files move into ${readmes.filter((r) => r.parent).length} rooms; ${changed.size} files change; ${toWrite.length} READMEs to write.`,
);
if (alreadyInPlace) console.log(`${alreadyInPlace} files are in their room already (an earlier run).`);
if (dryRun) console.log(`READMEs to write: ${toWrite.map((r) => r.dir).join(", ")}`);
if (skipped.length) console.log(`Named in the plan but not there (skipped):\n  ${skipped.join("\n  ")}`);
if (stay.length)
  console.log(
    `New since the plan (no room names them: they stay where they are; add them to scripts/rooms/plan.mjs):\n  ${stay.join("\n  ")}`,
  );
if (dryRun) {
  for (const [from, to] of moves) console.log(`  ${from} → ${to}`);
  process.exit(0);
}

if (readmesOnly) {
  const missing = toWrite.filter((r) => !touched.has(r.dir));
  for (const r of missing) writeFileSync(join(root, r.dir, "README.md"), readmeFor(r));
  const written = missing.map((r) => `${r.dir}/README.md`);
  if (written.length)
    execFileSync(
      join(root, "node_modules", ".bin", "prettier"),
      ["--write", "--log-level=warn", ...written],
      {
        cwd: root,
        stdio: "inherit",
      },
    );
  console.log(`${written.length} READMEs written (no file moved):\n  ${written.join("\n  ")}`);
  process.exit(0);
}

// Written from today's files, before they move.
const readmeTexts = toWrite.map((r) => [r.dir, readmeFor(r)]);
for (const [from, to] of moves) {
  mkdirSync(dirname(join(root, to)), { recursive: true });
  git("mv", from, to);
}
for (const [file, text] of changed) writeFileSync(join(root, newPathOf(file)), text);
for (const [dir, text] of readmeTexts) {
  mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, dir, "README.md"), text);
}
// The project's own formatter on what changed (a shorter or longer module name re-wraps lines).
const written = [...[...changed.keys()].map(newPathOf), ...readmeTexts.map(([dir]) => `${dir}/README.md`)];
execFileSync(join(root, "node_modules", ".bin", "prettier"), ["--write", "--log-level=warn", ...written], {
  cwd: root,
  stdio: "inherit",
});
console.log(
  "Done. Now: the type-checks, eslint . and prettier --check . (see the top of this script), then the tests.",
);
