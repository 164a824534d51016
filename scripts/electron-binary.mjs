// Finds the Electron binary the `electron` package would run, or says why there is none.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

export function findElectron() {
  let pkgDir;
  try {
    pkgDir = dirname(require.resolve("electron/package.json"));
  } catch {
    return { ok: false, why: "the electron package is not installed (run npm install)" };
  }
  const pathFile = join(pkgDir, "path.txt");
  if (!existsSync(pathFile)) {
    return {
      ok: false,
      why: "its binary was never downloaded (the download is skipped or blocked on this machine)",
    };
  }
  const binary = join(pkgDir, "dist", readFileSync(pathFile, "utf8").trim());
  if (!existsSync(binary)) return { ok: false, why: `its binary is missing at ${binary}` };
  return { ok: true, path: binary };
}
