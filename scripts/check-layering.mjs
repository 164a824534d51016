#!/usr/bin/env node
// Layering rules, checked rather than hoped for (ARCHITECTURE "Boundaries"):
//  - host code (electron/host) never imports `electron`;
//  - the contract (electron/host/rpc) imports nothing else of the host, so the renderer may use it;
//  - renderer code imports nothing under electron/ but the contract;
//  - plugins import nothing under electron/ (only plugins/sdk and packages).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), ".."));
const importPattern =
  /(?:import|export)\s[^'"`;]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|require\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

function* files(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry === "node_modules" || entry === "out" || entry.startsWith(".")) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(c|m)?(t|j)sx?$/.test(entry) && !entry.endsWith(".d.ts")) yield path;
  }
}

const rel = (p) => relative(root, p).split(sep).join("/");
const inside = (p, folder) => rel(p) === folder || rel(p).startsWith(folder + "/");

const rules = [
  {
    scope: "electron/host",
    check: (spec) =>
      spec === "electron" || spec.startsWith("electron/") ? "host code must not import electron" : null,
  },
  {
    scope: "electron/host/rpc",
    check: (spec, target) =>
      target && inside(target, "electron/host") && !inside(target, "electron/host/rpc")
        ? "the contract must not import host runtime code"
        : null,
  },
  {
    scope: "renderer",
    check: (spec, target) => {
      if (spec === "electron" || spec.startsWith("electron/"))
        return "renderer code must not import electron";
      if (target && inside(target, "electron") && !inside(target, "electron/host/rpc")) {
        return "renderer code may import only the contract (electron/host/rpc)";
      }
      return null;
    },
  },
  {
    scope: "plugins",
    check: (spec, target) => {
      if (spec === "electron" || spec.startsWith("electron/")) return "plugins must not import electron";
      if (target && inside(target, "electron")) return "plugins must not import host internals (use ctx)";
      return null;
    },
  },
];

const violations = [];
for (const rule of rules) {
  for (const file of files(join(root, rule.scope))) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(importPattern)) {
      const spec = match[1] ?? match[2] ?? match[3] ?? match[4];
      if (!spec) continue;
      const target = spec.startsWith(".") ? resolve(dirname(file), spec) : null;
      const problem = rule.check(spec, target);
      if (problem) violations.push(`${rel(file)}: imports "${spec}": ${problem}`);
    }
  }
}

if (violations.length) {
  console.error(`Layering check failed (${violations.length}):\n  ${violations.join("\n  ")}`);
  process.exit(1);
}
console.log("Layering check passed.");
