import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempHome } from "../support/temp-home.js";

const script = join(process.cwd(), "scripts", "check-layering.mjs");
let tree: { dir: string; cleanup(): void };
afterEach(() => tree?.cleanup());

function run(files: Record<string, string>): { ok: boolean; output: string } {
  tree = tempHome("hermes-layering-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree.dir, path)), { recursive: true });
    writeFileSync(join(tree.dir, path), text);
  }
  try {
    return { ok: true, output: execFileSync(process.execPath, [script, tree.dir], { encoding: "utf8" }) };
  } catch (err) {
    return { ok: false, output: String((err as { stderr?: string }).stderr) };
  }
}

describe("layering check", () => {
  it("passes the real tree", () => {
    expect(execFileSync(process.execPath, [script], { encoding: "utf8" })).toContain("passed");
  });

  it("fails when host code imports electron", () => {
    const r = run({ "electron/host/x.ts": 'import { app } from "electron";\n' });
    expect(r.ok).toBe(false);
    expect(r.output).toContain("host code must not import electron");
  });

  it("fails when renderer code imports host runtime code but allows the contract", () => {
    expect(
      run({ "renderer/src/a.ts": 'import type { MethodName } from "../../electron/host/rpc/contract";\n' })
        .ok,
    ).toBe(true);
    const r = run({ "renderer/src/a.ts": 'import { createHost } from "../../electron/host/host";\n' });
    expect(r.ok).toBe(false);
    expect(r.output).toContain("renderer code may import only the contract");
  });

  it("fails when a plugin imports host internals", () => {
    const r = run({ "plugins/p/index.js": 'import { x } from "../../electron/host/secrets/vault.js";\n' });
    expect(r.ok).toBe(false);
    expect(r.output).toContain("plugins must not import host internals");
  });

  it("fails when the contract imports host runtime code", () => {
    const r = run({
      "electron/host/rpc/m.ts": 'import { SettingsStore } from "../config/settings-store.js";\n',
    });
    expect(r.ok).toBe(false);
  });
});
