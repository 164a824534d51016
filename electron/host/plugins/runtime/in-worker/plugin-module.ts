/**
 * Loads a plugin's main module inside its worker (runs only in the CommonJS bundle plugin-worker.cjs,
 * so `require` is that bundle's own). `require()` of an ES module (Node ≥ 20.19) loads it without
 * starting the ES module loader, which `import()` starts on first use in every worker: measured
 * ~2.5 ms of the worker's CPU instead of ~9–13 ms, on a plugin load that is ~60 ms of CPU in all.
 * What `import()` would give stays exactly what the plugin gets:
 * - an ES module: `require` returns its namespace, the object `import()` resolves to;
 * - top-level await: `require` refuses before running any of the module; `import()` loads it;
 * - CommonJS: `import()` then wraps the exports `require` already ran and cached (it does not run
 *   the module again), so the shape (`default` = `module.exports`) is the one plugins always got.
 */
import type { pathToFileURL as PathToFileURL } from "node:url";

/** Taken before any plugin code runs: a plugin may replace Object.prototype.toString. */
const objectToString = Object.prototype.toString;
const apply = Reflect.apply;

/** Refusals after which `import()` can still load the file (async graph; a Node without require(esm)). */
const IMPORT_ONLY = new Set(["ERR_REQUIRE_ASYNC_MODULE", "ERR_REQUIRE_ESM"]);

const isModuleNamespace = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && apply(objectToString, value, []) === "[object Module]";

export async function loadPluginModule(file: string): Promise<Record<string, unknown>> {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see the header: the bundle is CommonJS
    const loaded: unknown = require(file);
    if (isModuleNamespace(loaded)) return loaded;
  } catch (error) {
    if (!IMPORT_ONLY.has((error as { code?: unknown } | null)?.code as string)) throw error;
  }
  // node:url only on this path: loading it costs every worker ~1 ms of CPU.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS bundle (see the header)
  const { pathToFileURL } = require("node:url") as { pathToFileURL: typeof PathToFileURL };
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}
