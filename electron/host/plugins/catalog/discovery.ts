/**
 * Finds plugins (docs/contract.md §5.1): the app's bundled `plugins/` folder, then `<home>/plugins`. A later
 * source wins on an id collision (with a warning); two folders of one source with the same id:
 * the second (by folder name) is refused with a reason shown on the first.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MANIFEST_FILE, parseManifest, type PluginManifest } from "./manifest.js";

export type PluginSource = "bundled" | "user";

export interface SourceFolder {
  source: PluginSource;
  dir: string;
}

interface FoundCommon {
  /** The manifest's `name`, or the folder name when the manifest could not be read. */
  id: string;
  dir: string;
  source: PluginSource;
  warnings: string[];
}

export type DiscoveredPlugin =
  | (FoundCommon & { kind: "valid"; manifest: PluginManifest })
  | (FoundCommon & { kind: "invalid"; reason: string });

function readOne(source: PluginSource, dir: string): DiscoveredPlugin | null {
  const file = path.join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return null; // not a plugin folder (e.g. plugins/sdk)
  }
  const result = parseManifest(text, dir);
  const common = { dir, source, warnings: result.warnings };
  return result.ok
    ? { ...common, id: result.manifest.name, kind: "valid", manifest: result.manifest }
    : { ...common, id: path.basename(dir), kind: "invalid", reason: result.reason };
}

function scanSource({ source, dir }: SourceFolder): DiscoveredPlugin[] {
  let names: string[];
  try {
    names = fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return []; // a missing source folder is simply empty
  }
  const byId = new Map<string, DiscoveredPlugin>();
  for (const name of names) {
    const found = readOne(source, path.join(dir, name));
    if (!found) continue;
    const first = byId.get(found.id);
    if (first) {
      first.warnings.push(
        `The folder ${found.dir} also declares the id "${found.id}" and was not loaded; rename one of them.`,
      );
      continue;
    }
    byId.set(found.id, found);
  }
  return [...byId.values()];
}

/** Every plugin of every source, sorted by id; later sources replace earlier ones on the same id. */
export function discoverPlugins(sources: readonly SourceFolder[]): DiscoveredPlugin[] {
  const byId = new Map<string, DiscoveredPlugin>();
  for (const source of sources) {
    for (const found of scanSource(source)) {
      const earlier = byId.get(found.id);
      if (earlier) {
        found.warnings.push(
          `Replaces the ${earlier.source} plugin "${found.id}" in ${earlier.dir} (a ${found.source} plugin wins).`,
        );
      }
      byId.set(found.id, found);
    }
  }
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * The app's bundled `plugins/` folder: the nearest ancestor of this module holding a
 * `package.json` next to a `plugins/` folder (works from the sources and from `out/`).
 */
export function findBundledPluginsDir(fromUrl: string = import.meta.url): string | null {
  let dir = path.dirname(fileURLToPath(fromUrl));
  for (;;) {
    const candidate = path.join(dir, "plugins");
    if (fs.existsSync(path.join(dir, "package.json")) && fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
