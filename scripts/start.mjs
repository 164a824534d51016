#!/usr/bin/env node
// `npm start`: the desktop app where Electron runs; otherwise one line saying why, then web mode.
import { spawn } from "node:child_process";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { findElectron } from "./electron-binary.mjs";
import { ensureNativeAbi } from "./native-abi.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const electron = findElectron();
const headless = process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;

const run = (cmd, argv) => {
  const child = spawn(cmd, argv, { cwd: root, stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
};

if (electron.ok && !headless) {
  ensureNativeAbi("electron");
  run(electron.path, [root, ...args]);
} else {
  const why = electron.ok ? "no display to open a window on" : electron.why;
  console.log(`Electron is not available: ${why}. Serving the web UI instead.`);
  run(process.execPath, [join(root, "out", "app", "web.js"), ...args]);
}
