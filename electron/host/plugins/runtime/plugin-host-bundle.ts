/**
 * Where the plugin host's code is. The app's build puts `plugin-host.js` and `plugin-worker.cjs`
 * next to the bundled host (`out/app/`, see scripts/build-bundles.mjs). Running from the sources
 * (tests, tsx) there is no bundle, so one is built once per source state into the temp folder with
 * esbuild (a dev dependency, present wherever the sources are).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { unpackedPath } from "./launch/runtime-paths.js";

export interface PluginHostBundle {
  /** The plugin host's entry module. */
  entry: string;
  /** The folder holding the entry, the worker and their chunks: the plugin host may read it. */
  dir: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
let built: Promise<PluginHostBundle> | null = null;

const isBundle = (dir: string) =>
  fs.existsSync(path.join(dir, "plugin-host.js")) && fs.existsSync(path.join(dir, "plugin-worker.cjs"));

/** The app's built plugin host, found at once; null when running from the sources. */
export function builtPluginHostBundle(): PluginHostBundle | null {
  // Bundled host: next to this module. tsc's out/electron/host/…: the build's out/app beside it.
  const besideTsc = path.resolve(here, "..", "..", "..", "..", "app");
  for (const dir of [here, besideTsc]) {
    if (isBundle(dir)) {
      const real = unpackedPath(dir);
      return { entry: path.join(real, "plugin-host.js"), dir: real };
    }
  }
  return null;
}

export function locatePluginHostBundle(): Promise<PluginHostBundle> {
  const found = builtPluginHostBundle();
  if (found) return Promise.resolve(found);
  built ??= buildFromSources();
  return built;
}

async function buildFromSources(): Promise<PluginHostBundle> {
  const sources = [path.join(here, "plugin-host-main.ts"), path.join(here, "plugin-worker-main.ts")];
  const hash = createHash("sha256");
  for (const file of fs.readdirSync(path.join(here, "..", ".."), { recursive: true })) {
    const full = path.join(here, "..", "..", String(file));
    if (full.endsWith(".ts")) hash.update(full).update(String(fs.statSync(full).mtimeMs));
  }
  const dir = path.join(os.tmpdir(), `hermes-plugin-host-${hash.digest("hex").slice(0, 16)}`);
  const entry = path.join(dir, "plugin-host.js");
  if (!fs.existsSync(path.join(dir, "plugin-worker.cjs"))) {
    const esbuild = await import("esbuild");
    const staging = `${dir}.${process.pid}.tmp`;
    const common = { bundle: true, platform: "node", target: "node20", logLevel: "error" } as const;
    await esbuild.build({
      ...common,
      entryPoints: [sources[0]!],
      format: "esm",
      outfile: path.join(staging, "plugin-host.js"),
    });
    // The worker as CommonJS, as the app's build makes it (scripts/build-bundles.mjs).
    await esbuild.build({
      ...common,
      entryPoints: [sources[1]!],
      format: "cjs",
      outfile: path.join(staging, "plugin-worker.cjs"),
    });
    try {
      fs.renameSync(staging, dir);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another process built it first
    }
  }
  return { entry, dir };
}
