/**
 * What the plugin host may touch (docs/contract.md §5.4): read the bundled plugins (with the SDK inside) and
 * `<home>/plugins`, write `<home>/plugin-data`. Real paths too, since the permission model
 * checks the path a symlink resolves to.
 */
import fs from "node:fs";
import path from "node:path";

/**
 * The real file behind a path inside Electron's app.asar: the packaged app unpacks the plugin host
 * and the bundled plugins (build/electron-builder.yml), since a process under the permission model
 * reads real files only.
 */
export function unpackedPath(file: string): string {
  return file.replace(/([\\/])app\.asar([\\/])/, "$1app.asar.unpacked$2");
}

export function pluginRuntimePaths(
  home: string,
  bundledDir: string | null,
): { readPaths: string[]; writePaths: string[] } {
  const userDir = path.join(home, "plugins");
  const dataDir = path.join(home, "plugin-data");
  fs.mkdirSync(userDir, { recursive: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const withReal = (dirs: string[]) =>
    [...new Set(dirs.flatMap((dir) => [dir, safeRealpath(dir)]))].filter((d): d is string => d !== null);
  return {
    readPaths: withReal([...(bundledDir ? [unpackedPath(bundledDir)] : []), userDir]),
    writePaths: withReal([dataDir]),
  };
}

function safeRealpath(dir: string): string | null {
  try {
    return fs.realpathSync(dir);
  } catch {
    return null;
  }
}
