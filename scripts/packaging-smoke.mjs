#!/usr/bin/env node
// Packs the app the way `npm run dist` does, without the Electron binary: electron-builder's
// `--linux dir` against a stub Electron distribution whose one file carries Electron's fuse wire,
// so the fuses are really flipped and read back. Then checks the packed payload: its size (printed
// with its 10 largest entries; over 30 MB fails), no renderer-only or other dev library, no test
// file, no source map, `main` resolving inside it, every run-time dependency present, the native
// modules unpacked beside app.asar. Run after `node scripts/build.mjs`.
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = require(join(root, "package.json"));
const MAX_PAYLOAD_BYTES = 30 * 1024 * 1024;
/** Libraries the renderer bundle inlines: none of them may ship as a module. */
const RENDERER_ONLY =
  /^(react|react-dom|mermaid|katex|zustand|lucide-react|react-markdown|@radix-ui\/.*|@tanstack\/.*|remark-.*|rehype-.*|micromark.*|mdast-.*|hast-.*|unified|highlight\.js|cytoscape.*|d3.*)$/;
/** Installed with a native module to fetch its prebuilt binary; never loaded by the app. */
const INSTALL_TIME_ONLY = new Set(["prebuild-install", "node-addon-api"]);
/** What the built configuration must leave in the binary (build/electron-builder.yml). */
const EXPECTED_FUSES = {
  RunAsNode: false,
  EnableCookieEncryption: true,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
};

const work = mkdtempSync(join(tmpdir(), "hermes-pack-"));
const fail = (message) => {
  console.error(`Packaging smoke failed: ${message}`);
  if (!process.env.KEEP_PACK) rmSync(work, { recursive: true, force: true });
  process.exit(1);
};

const { FuseV1Options, getCurrentFuseWire } = require("@electron/fuses");
const { SENTINEL, FuseState } = require("@electron/fuses/dist/constants");
const stub = join(work, "electron-dist");
mkdirSync(stub);
// Electron's own defaults, in wire order: RunAsNode on, cookie encryption off, NODE_OPTIONS on,
// inspect flags on, asar integrity off, only-asar off, browser V8 snapshot off, file:// privileges on.
const defaults = "10110001";
writeFileSync(
  join(stub, "electron"),
  Buffer.concat([
    Buffer.from("#!/bin/sh\n# stub\n"),
    Buffer.from(SENTINEL),
    Buffer.from([1, defaults.length]),
    Buffer.from(defaults),
  ]),
);
chmodSync(join(stub, "electron"), 0o755);

const output = join(work, "dist");
try {
  execFileSync(process.execPath, [join(root, "scripts", "build-icons.mjs")], { cwd: root, stdio: "ignore" });
} catch (err) {
  fail(`the icons could not be made: ${err.message}`);
}
try {
  execFileSync(
    join(root, "node_modules", ".bin", "electron-builder"),
    [
      "--config",
      "build/electron-builder.yml",
      "--linux",
      "dir",
      `-c.electronDist=${stub}`,
      `-c.directories.output=${output}`,
      // No native rebuild: it would rebuild node_modules for Electron's ABI under the tests' feet.
      "-c.npmRebuild=false",
    ],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CSC_IDENTITY_AUTO_DISCOVERY: "false" },
    },
  );
} catch (err) {
  fail(
    `electron-builder exited with an error:\n${err.stdout?.toString() ?? ""}${err.stderr?.toString() ?? err.message}`,
  );
}

const appDir = join(output, "linux-unpacked");
const binary = join(appDir, pkg.name);
if (!existsSync(binary)) fail(`no executable at ${binary}`);
const wire = await getCurrentFuseWire(binary);
for (const [name, wanted] of Object.entries(EXPECTED_FUSES)) {
  const state = wire[FuseV1Options[name]];
  const expected = wanted ? FuseState.ENABLE : FuseState.DISABLE;
  if (state !== expected)
    fail(
      `fuse ${name} is ${String.fromCharCode(state)} in the packed binary, wanted ${wanted ? "on" : "off"}`,
    );
}

const resources = join(appDir, "resources");
const asar = join(resources, "app.asar");
if (!existsSync(asar)) fail(`no app.asar at ${asar}`);
const { extractFile, listPackage, statFile } = await import("@electron/asar");

/** Every file of the payload (app.asar and app.asar.unpacked), its path inside the app and size. */
const entries = [];
const unpackedDir = join(resources, "app.asar.unpacked");
for (const listed of listPackage(asar, { isPack: false })) {
  const path = listed.replace(/\\/g, "/");
  const stat = statFile(asar, path.slice(1), false);
  if ("files" in stat || "link" in stat || stat.unpacked) continue;
  entries.push({ path, size: stat.size });
}
const walk = (dir) => {
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, name.name);
    if (name.isDirectory()) walk(full);
    else
      entries.push({
        path: `/${relative(unpackedDir, full).replace(/\\/g, "/")}`,
        size: statSync(full).size,
      });
  }
};
if (existsSync(unpackedDir)) walk(unpackedDir);
const paths = new Set(entries.map((e) => e.path));

const total = entries.reduce((sum, e) => sum + e.size, 0);
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
console.log(
  `Packed payload: ${mb(total)} in ${entries.length} files (app.asar + app.asar.unpacked). Largest:`,
);
for (const e of [...entries].sort((a, b) => b.size - a.size).slice(0, 10)) {
  console.log(`  ${mb(e.size).padStart(9)}  ${e.path}`);
}
if (total > MAX_PAYLOAD_BYTES) fail(`the payload is ${mb(total)}, over the ${mb(MAX_PAYLOAD_BYTES)} budget`);

const modules = new Set();
for (const { path } of entries) {
  const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  if (m) modules.add(m[1]);
}
const rendererOnly = [...modules].filter((name) => RENDERER_ONLY.test(name));
if (rendererOnly.length) fail(`renderer-only libraries are packed as modules: ${rendererOnly.join(", ")}`);
const devOnly = [...modules].filter((name) => name in pkg.devDependencies);
if (devOnly.length) fail(`devDependencies are packed: ${devOnly.join(", ")}`);
const tests = [...paths].filter(
  (p) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(p) || /\/(test|tests|__tests__)\//.test(p),
);
if (tests.length)
  fail(`test files are packed: ${tests.slice(0, 5).join(", ")}${tests.length > 5 ? " …" : ""}`);
const maps = [...paths].filter((p) => p.endsWith(".map"));
if (maps.length) fail(`source maps are packed: ${maps.slice(0, 5).join(", ")}${maps.length > 5 ? " …" : ""}`);

const packedPkg = JSON.parse(extractFile(asar, "package.json").toString("utf8"));
const main = `/${posix.normalize(packedPkg.main)}`;
if (!paths.has(main)) fail(`package.json's main (${packedPkg.main}) is not inside the package`);
for (const required of [
  "/out/app/main.js",
  "/out/app/preload.cjs",
  "/out/app/plugin-host.js",
  "/out/renderer/index.html",
  "/plugins/tldr/plugin.yaml",
]) {
  if (!paths.has(required)) fail(`the package lacks ${required}`);
}

// Every run-time dependency, transitively, resolves inside the package as Node would resolve it
// there (install-time helpers excepted; a missing optional one is another platform's).
const readPacked = (path) => {
  const stat = statFile(asar, path.slice(1), false);
  const text = stat.unpacked ? readFileSync(join(unpackedDir, path)) : extractFile(asar, path.slice(1));
  return JSON.parse(text.toString("utf8"));
};
const missing = new Set();
const visited = new Set();
const visit = (name, fromDir, optional) => {
  if (INSTALL_TIME_ONLY.has(name)) return;
  let dir = fromDir;
  let found = null;
  for (;;) {
    const candidate = `${dir === "/" ? "" : dir}/node_modules/${name}`;
    if (paths.has(`${candidate}/package.json`)) {
      found = candidate;
      break;
    }
    if (dir === "/") break;
    dir = dir.replace(/\/node_modules\/(@[^/]+\/)?[^/]+$/, "") || "/";
  }
  if (!found) {
    if (!optional) missing.add(`${name} (from ${fromDir})`);
    return;
  }
  if (visited.has(found)) return;
  visited.add(found);
  const manifest = readPacked(`${found}/package.json`);
  const optionalDeps = manifest.optionalDependencies ?? {};
  for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, found, dep in optionalDeps);
  for (const dep of Object.keys(optionalDeps)) visit(dep, found, true);
};
for (const name of Object.keys(pkg.dependencies ?? {})) visit(name, "/", false);
for (const name of Object.keys(pkg.optionalDependencies ?? {})) visit(name, "/", false);
if (missing.size) fail(`run-time dependencies do not resolve inside the package: ${[...missing].join(", ")}`);

const natives = entries.filter((e) => e.path.endsWith(".node")).map((e) => e.path);
for (const mod of ["keytar", "better-sqlite3"]) {
  if (!natives.some((p) => p.startsWith(`/node_modules/${mod}/`)))
    fail(`native module ${mod} is not unpacked beside app.asar`);
}
console.log(
  `Packaging smoke passed: fuses ${Object.entries(EXPECTED_FUSES)
    .map(([k, v]) => `${k}=${v ? "on" : "off"}`)
    .join(" ")}; ` +
    `${modules.size} modules (${[...modules].sort().join(", ")}); native: ${natives.length} .node files unpacked.`,
);
if (!process.env.KEEP_PACK) rmSync(work, { recursive: true, force: true });
else console.log(work);
