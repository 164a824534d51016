// build/electron-builder.yml and package.json as the packager reads them: the fuses, the Linux
// packages' dependencies against electron-builder's own defaults, and a payload of run-time
// modules only. scripts/packaging-smoke.mjs packs the app and checks the result itself.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const root = path.join(import.meta.dirname, "..", "..", "..");
const config = parse(readFileSync(path.join(root, "build", "electron-builder.yml"), "utf8")) as {
  electronFuses: Record<string, boolean>;
  linux: { target: string[] };
  deb: { depends: string[]; recommends: string[] };
  rpm: { depends: string[] };
  files: string[];
};
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** electron-builder's defaults for a deb/rpm's `depends`, which a `depends` list replaces. */
function builderDefaults(target: "deb" | "rpm"): string[] {
  const require = createRequire(path.join(root, "package.json"));
  const { default: FpmTarget } = require("app-builder-lib/out/targets/FpmTarget") as {
    default: { prototype: { getDefaultDepends(target: string): string[] } };
  };
  return FpmTarget.prototype.getDefaultDepends.call({}, target);
}

describe("the packaged app's configuration", () => {
  it("flips the fuses of Electron's security checklist", () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it("makes deb and rpm the primary Linux packages", () => {
    expect(config.linux.target.slice(0, 2)).toEqual(["deb", "rpm"]);
  });

  it("keeps every library electron-builder's defaults name for Electron, and adds the Secret Service client", () => {
    const deb = builderDefaults("deb");
    expect(deb.length).toBeGreaterThan(5);
    expect(config.deb.depends).toEqual(expect.arrayContaining([...deb, "libsecret-1-0"]));
    const rpm = builderDefaults("rpm");
    expect(rpm.length).toBeGreaterThan(5);
    expect(config.rpm.depends).toEqual(expect.arrayContaining([...rpm, "libsecret"]));
  });

  it("ships no source map and no test file", () => {
    expect(config.files).toEqual(expect.arrayContaining(["!**/*.map", "!**/*.{test,spec}.{js,cjs,mjs,ts}"]));
  });

  it("lists as run-time dependencies only what the built main process and plugin host load", () => {
    // scripts/build-bundles.mjs inlines every other library; the renderer is bundled by vite.
    expect(Object.keys(pkg.dependencies).sort()).toEqual(["better-sqlite3", "electron-updater"]);
    expect(Object.keys(pkg.optionalDependencies)).toEqual(["keytar"]);
    for (const renderer of [
      "react",
      "react-dom",
      "mermaid",
      "katex",
      "zustand",
      "react-markdown",
      "lucide-react",
    ]) {
      expect(pkg.devDependencies).toHaveProperty(renderer);
    }
  });
});
