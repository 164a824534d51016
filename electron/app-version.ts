/** The app's version, read from package.json next to the build output (works in dev and packaged). */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function appVersion(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [join(here, "..", "..", "package.json"), join(here, "..", "package.json")]) {
    try {
      const pkg = JSON.parse(readFileSync(candidate, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "hermes-desktop" && pkg.version) return pkg.version;
    } catch {
      // Try the next location.
    }
  }
  return "0.0.0";
}
