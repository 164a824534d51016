#!/usr/bin/env node
// The bundles tsc can't make:
//  - the Node entries (web mode and the Electron main process) as one ES module each, so start-up
//    loads one file instead of hundreds (native modules and electron stay external);
//  - the plugin host and its worker (they run under Node's permission model, reading only out/app);
//  - the preload: a sandboxed preload can't require local files, so it ships as one CommonJS file;
//  - the renderer.
import { build } from "vite";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { precompiledValidatorModule } from "./precompiled-validator.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const appDir = join(root, "out", "app");
// The host loads these at run time: Electron itself, and the native addons.
const hostExternal = ["electron", "keytar", "better-sqlite3", "electron-updater"];

// The settings validator goes in precompiled (ajv's standalone code), from tsc's output of its own
// options and schema: compiling it at start-up cost ~130 ms of CPU before the first window's data.
const validatorSource = join(root, "electron", "host", "config", "settings-validator.ts");
const compiledConfig = (file) =>
  import(pathToFileURL(join(root, "out", "electron", "host", "config", file)).href);
const { SETTINGS_AJV_OPTIONS } = await compiledConfig("settings-validator.js");
const { settingsSchema } = await compiledConfig("config-schema.js");
const precompiledValidator = {
  name: "precompiled-settings-validator",
  enforce: "pre",
  load(id) {
    if (id !== validatorSource) return null;
    return precompiledValidatorModule(SETTINGS_AJV_OPTIONS, settingsSchema);
  },
};

/** A bundle for Node in out/app: every import inlined but `external`. */
const buildForNode = ({ input, output, emptyOutDir, sourcemap, external = [] }) =>
  build({
    configFile: false,
    logLevel: "warn",
    build: {
      ssr: true,
      target: "node20",
      outDir: appDir,
      emptyOutDir,
      minify: false,
      sourcemap,
      rollupOptions: { input, output },
    },
    plugins: [precompiledValidator],
    ssr: { noExternal: true, external },
  });

await buildForNode({
  input: { web: join(root, "electron", "web.ts"), main: join(root, "electron", "main.ts") },
  output: { format: "es", entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js" },
  emptyOutDir: true,
  sourcemap: true,
  external: hostExternal,
});

// The plugin host process and its per-plugin worker (docs/contract.md §5.4): own entries, so the plugin host
// loads nothing of the host but the boundary it shares. It may read only this folder's files.
const runtimeDir = join(root, "electron", "host", "plugins", "runtime");
const buildPluginRuntimeEntry = (name, output) =>
  buildForNode({
    input: { [name]: join(runtimeDir, `${name}-main.ts`) },
    output,
    emptyOutDir: false,
    sourcemap: false,
  });
await buildPluginRuntimeEntry("plugin-host", {
  format: "es",
  entryFileNames: "[name].js",
  chunkFileNames: "plugin-[name]-[hash].js",
});
// The worker, one per plugin, as one CommonJS file: a worker whose entry is CommonJS skips the
// ES module loader's start-up until a plugin is imported (measured: a few ms of CPU per worker).
await buildPluginRuntimeEntry("plugin-worker", {
  format: "cjs",
  entryFileNames: "[name].cjs",
  inlineDynamicImports: true,
});

await build({
  configFile: false,
  logLevel: "warn",
  build: {
    outDir: appDir,
    emptyOutDir: false,
    minify: false,
    sourcemap: false,
    lib: { entry: join(root, "electron", "preload.ts"), formats: ["cjs"], fileName: () => "preload.cjs" },
    rollupOptions: { external: ["electron"] },
  },
});

await build({ configFile: join(root, "renderer", "vite.config.ts"), logLevel: "warn" });
