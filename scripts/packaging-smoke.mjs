#!/usr/bin/env node
// Proves the electron-builder config packs the app without the Electron binary: `--linux dir`
// against a stub Electron distribution, then checks the asar holds the app and the native
// modules are unpacked beside it.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const work = mkdtempSync(join(tmpdir(), "hermes-pack-"));
const stub = join(work, "electron-dist");
const output = join(work, "dist");
execFileSync("mkdir", ["-p", stub]);
writeFileSync(join(stub, "electron"), "#!/bin/sh\necho stub electron\n");
chmodSync(join(stub, "electron"), 0o755);

const fail = (message) => {
  console.error(`Packaging smoke failed: ${message}`);
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
};

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

const unpacked = join(output, "linux-unpacked", "resources");
const asar = join(unpacked, "app.asar");
if (!existsSync(asar)) fail(`no app.asar at ${asar}`);
const { listPackage } = await import("@electron/asar");
const files = new Set(listPackage(asar, { isPack: false }).map((f) => f.replace(/\\/g, "/")));
for (const required of [
  "/package.json",
  "/out/app/main.js",
  "/out/app/preload.cjs",
  "/plugins/tldr/plugin.yaml",
  "/out/renderer/index.html",
]) {
  if (!files.has(required)) fail(`app.asar lacks ${required}`);
}
const nativeDir = join(unpacked, "app.asar.unpacked", "node_modules");
const natives = existsSync(nativeDir) ? readdirSync(nativeDir) : [];
for (const mod of ["keytar", "better-sqlite3"]) {
  if (!natives.includes(mod)) fail(`native module ${mod} is not unpacked beside app.asar`);
}
console.log(
  `Packaging smoke passed: ${files.size} entries in app.asar; native modules unpacked: ${natives.join(", ")}.`,
);
rmSync(work, { recursive: true, force: true });
