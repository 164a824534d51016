#!/usr/bin/env node
// The two bundles tsc can't make: the preload (a sandboxed preload can't require local files, so
// it ships as one CommonJS file) and the renderer.
import { build } from "vite";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

await build({
  configFile: false,
  logLevel: "warn",
  build: {
    outDir: join(root, "out", "electron"),
    emptyOutDir: false,
    minify: false,
    sourcemap: false,
    lib: { entry: join(root, "electron", "preload.ts"), formats: ["cjs"], fileName: () => "preload.cjs" },
    rollupOptions: { external: ["electron"] },
  },
});

await build({ configFile: join(root, "renderer", "vite.config.ts"), logLevel: "warn" });
