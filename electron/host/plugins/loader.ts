/**
 * Imports a plugin's ES module and runs its `register(ctx)` (SPEC §5.1): named or default export,
 * bounded by a timeout on the injectable clock. Every failure is a PluginLoadError whose message
 * is the reason the Plugins page shows.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Clock } from "../clock.js";
import type { PluginContext, RegisterFn } from "../../../plugins/sdk/types.js";

export const REGISTER_TIMEOUT_MS = 10_000;

export class PluginLoadError extends Error {
  override readonly name = "PluginLoadError";
}

export interface LoadRequest {
  dir: string;
  /** The manifest's `main`, relative to `dir`. */
  main: string;
  ctx: PluginContext;
  clock: Clock;
  timeoutMs?: number;
}

let importGeneration = 0;

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

function pickRegister(mod: Record<string, unknown>, main: string): RegisterFn {
  const named = mod.register;
  if (typeof named === "function") return named as RegisterFn;
  const fallback = mod.default;
  if (typeof fallback === "function") return fallback as RegisterFn;
  const nested = (fallback as { register?: unknown } | null | undefined)?.register;
  if (typeof nested === "function") return nested as RegisterFn;
  throw new PluginLoadError(`${main} exports no register function; export "register" (named or default).`);
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Imports the module and runs `register(ctx)`; resolves when register finished, else throws. The
 * 10 s bound covers the import too: a module whose top-level `await` never settles fails the same way.
 */
export async function loadPlugin(request: LoadRequest): Promise<void> {
  const file = resolveMain(request.dir, request.main);
  // A fresh query per import, so a re-enable runs the edited file instead of the cached module.
  const url = `${pathToFileURL(file).href}?v=${Date.now().toString(36)}-${++importGeneration}`;
  const timeoutMs = request.timeoutMs ?? REGISTER_TIMEOUT_MS;
  let timer: ReturnType<Clock["setTimeout"]> | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = request.clock.setTimeout(
      () =>
        reject(
          new PluginLoadError(
            `register() did not finish within ${Math.round(timeoutMs / 1000)} s; make it return sooner (start slow work in the background).`,
          ),
        ),
      timeoutMs,
    );
  });
  const importAndRegister = async () => {
    let mod: Record<string, unknown>;
    try {
      mod = (await import(url)) as Record<string, unknown>;
    } catch (error) {
      throw new PluginLoadError(`Loading ${request.main} failed: ${describe(error)}`);
    }
    const register = pickRegister(mod, request.main);
    try {
      await register(request.ctx);
    } catch (error) {
      throw new PluginLoadError(`register() failed: ${describe(error)}`);
    }
  };
  try {
    await Promise.race([importAndRegister(), timedOut]);
  } finally {
    if (timer) request.clock.clearTimeout(timer);
  }
}
