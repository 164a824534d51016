// better-sqlite3 is built for one runtime at a time: Node's ABI (tests, web mode) or Electron's
// (the desktop app). This keeps a stamp of which one and rebuilds when the other is needed.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const stamp = join(root, "node_modules", ".hermes-native-abi");

export const currentNativeAbi = () => (existsSync(stamp) ? readFileSync(stamp, "utf8").trim() : "node");

export function ensureNativeAbi(target) {
  if (currentNativeAbi() === target) return;
  console.log(`Rebuilding native modules for ${target === "electron" ? "Electron" : "Node"}…`);
  const bin = join(root, "node_modules", ".bin");
  if (target === "electron")
    execFileSync(join(bin, "electron-builder"), ["install-app-deps"], { cwd: root, stdio: "inherit" });
  else {
    execFileSync("npm", ["rebuild", "better-sqlite3"], { cwd: root, stdio: "inherit" });
    // keytar is optional: absent where libsecret's headers were missing at install time, and a
    // failed rebuild only means the app runs without the keychain (it says so and how to fix it).
    if (existsSync(join(root, "node_modules", "keytar"))) {
      try {
        execFileSync("npm", ["rebuild", "keytar"], { cwd: root, stdio: "inherit" });
      } catch {
        console.log("keytar could not be rebuilt; the app will run without the OS keychain and say why.");
      }
    }
  }
  writeFileSync(stamp, target);
}

// `node scripts/native-abi.mjs node|electron` from npm scripts.
if (import.meta.url === `file://${process.argv[1]}`) {
  const target = process.argv[2];
  if (target !== "node" && target !== "electron") {
    console.error("usage: node scripts/native-abi.mjs node|electron");
    process.exit(2);
  }
  ensureNativeAbi(target);
}
