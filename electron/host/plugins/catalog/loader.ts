/**
 * Checks a plugin's main module before its worker imports it (docs/contract.md §5.1): it must exist and stay
 * inside the plugin folder. `register` itself runs in the worker (runtime/plugin-worker-main.ts),
 * bounded by REGISTER_TIMEOUT_MS on the host's clock.
 */
import fs from "node:fs";
import path from "node:path";

export const REGISTER_TIMEOUT_MS = 10_000;

export class PluginLoadError extends Error {
  override readonly name = "PluginLoadError";
}

/** The main module's absolute path, refused when it (or a symlink on the way) leaves the folder. */
export function resolveMain(dir: string, main: string): string {
  const realDir = fs.realpathSync(dir);
  const target = path.resolve(dir, main);
  let real: string;
  try {
    real = fs.realpathSync(target);
  } catch {
    throw new PluginLoadError(
      `The main module "${main}" does not exist in ${dir}; check "main" in plugin.yaml.`,
    );
  }
  const rel = path.relative(realDir, real);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) {
    throw new PluginLoadError(
      `The main module "${main}" resolves outside the plugin folder; keep it inside ${dir}.`,
    );
  }
  return real;
}
