#!/usr/bin/env node
// Builds the app into out/: the host and shells (tsc), the sandboxed preload (one CJS bundle) and
// the renderer (vite). `--if-stale` skips the work when nothing changed since the last build.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const stamp = join(root, "out", ".build-stamp");
const sources = [
  "electron",
  "renderer",
  "plugins/sdk",
  "package.json",
  "tsconfig.json",
  "tsconfig.base.json",
  "tsconfig.build.json",
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === "node_modules") continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

const quiet = process.argv.includes("--quiet");
if (process.argv.includes("--if-stale") && existsSync(stamp)) {
  const built = statSync(stamp).mtimeMs;
  if (sources.every((s) => newestMtime(join(root, s)) <= built)) process.exit(0);
}

const bin = (name) => join(root, "node_modules", ".bin", name);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: quiet ? "pipe" : "inherit" });
const started = Date.now();
try {
  if (!quiet) console.log("Building Hermes Desktop…");
  run(bin("tsc"), ["-p", "tsconfig.build.json"]);
  run(process.execPath, [join(root, "scripts", "build-bundles.mjs")]);
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, new Date().toISOString());
  if (!quiet) console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
} catch (err) {
  if (quiet && err.stdout) process.stdout.write(err.stdout);
  if (quiet && err.stderr) process.stderr.write(err.stderr);
  console.error("Build failed: fix the errors above, then run the command again.");
  process.exit(1);
}
