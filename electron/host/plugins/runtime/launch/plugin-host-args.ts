/**
 * What the host tells the plugin host process on its command line (one JSON argument): where
 * plugins run confined, what a confined worker may touch, and how many spare workers to boot.
 * Written by plugin-host-process.ts, read by plugin-host-main.ts; neither carries a key or token.
 */
import path from "node:path";
import type { Confinement, PluginGrants } from "./permission-flags.js";

export interface SpareWorkers {
  count: number;
  heapMb: number;
}

export interface PluginHostArgs {
  confinement: Confinement;
  /** Given to each worker's permission flags when `confinement` is "worker". */
  grants: PluginGrants;
  /** Workers to start at once, before their plugins are known; null for none. */
  spares: SpareWorkers | null;
}

export function encodePluginHostArgs(args: PluginHostArgs): string[] {
  return [JSON.stringify(args)];
}

class PluginHostArgsError extends Error {
  override readonly name = "PluginHostArgsError";
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function folders(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || !value.every((dir) => typeof dir === "string" && path.isAbsolute(dir))) {
    throw new PluginHostArgsError(`grants.${what} must be a list of absolute folder paths`);
  }
  return value as string[];
}

function positiveInteger(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new PluginHostArgsError(`spares.${what} must be a positive whole number`);
  }
  return value;
}

/** The arguments after the entry module (`process.argv.slice(2)`); throws saying what is wrong. */
export function parsePluginHostArgs(argv: readonly string[]): PluginHostArgs {
  if (argv.length !== 1) {
    throw new PluginHostArgsError(
      `expected one JSON argument with its launch settings, got ${argv.length} arguments`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(argv[0]!);
  } catch {
    throw new PluginHostArgsError("its launch settings are not valid JSON");
  }
  if (!isRecord(raw)) throw new PluginHostArgsError("its launch settings must be a JSON object");
  const { confinement, grants, spares } = raw;
  if (confinement !== "process" && confinement !== "worker") {
    throw new PluginHostArgsError(
      `confinement must be "process" or "worker", not ${JSON.stringify(confinement)}`,
    );
  }
  if (!isRecord(grants)) throw new PluginHostArgsError("grants must be an object {read, write}");
  const read = folders(grants.read, "read");
  const write = folders(grants.write, "write");
  if (spares !== null && !isRecord(spares)) {
    throw new PluginHostArgsError("spares must be null or an object {count, heapMb}");
  }
  return {
    confinement,
    grants: { read, write },
    spares: spares && {
      count: positiveInteger(spares.count, "count"),
      heapMb: positiveInteger(spares.heapMb, "heapMb"),
    },
  };
}
