// The layering rules live in ESLint (eslint.layering.js); each is fed a file that breaks it, and
// the code it must allow, through ESLint's own API with the project's config. The whole tree is
// linted by the lint step of npm test.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === "no-restricted-imports" || m.ruleId === "no-restricted-syntax")
    .map((m) => m.message);
}

describe("layering rules (ESLint)", () => {
  it.each([
    ["electron/host/x.ts", 'import { app } from "electron";\n'],
    ["electron/host/x.ts", 'export async function f() { return import("electron"); }\n'],
    ["electron/host/x.ts", 'const e = require("electron");\nexport default e;\n'],
    ["electron/host/x.ts", 'import Store from "electron-store";\nexport default Store;\n'],
    ["electron/host/llm/x.ts", 'import "../../main.js";\n'],
    ["electron/host/x.ts", 'import "../web.js";\n'],
  ])("host code may not import electron or the shell: %s %s", async (file, code) => {
    expect(await problems(file, code)).not.toEqual([]);
  });

  it("lets host code import the keychain binding, SQLite and Node built-ins", async () => {
    const code =
      'import Database from "better-sqlite3";\nimport { join } from "node:path";\n' +
      'export const load = () => import("keytar");\nexport { Database, join };\n';
    expect(await problems("electron/host/x.ts", code)).toEqual([]);
  });

  it.each([
    ["electron/host/rpc/m.ts", 'import { SettingsStore } from "../config/settings-store.js";\n'],
    ["electron/host/rpc/methods/m.ts", 'import { Vault } from "../../secrets/vault.js";\n'],
  ])("the contract may not import host runtime code: %s", async (file, code) => {
    const found = await problems(file, code);
    expect(found.join("\n")).toContain("The contract (electron/host/rpc) must not import host runtime code.");
  });

  it("lets the contract import itself", async () => {
    expect(
      await problems("electron/host/rpc/methods/m.ts", 'import { method } from "../define.js";\n'),
    ).toEqual([]);
  });

  it("lets the contract import the settings schema, which imports nothing", async () => {
    const code =
      'import type { Settings } from "../../config/config-schema.js";\nexport type S = Settings;\n';
    expect(await problems("electron/host/rpc/methods/m.ts", code)).toEqual([]);
    expect(
      await problems("electron/host/rpc/methods/m.ts", 'import "../../config/config-schema-x.js";\n'),
    ).not.toEqual([]);
  });

  it("lets the settings schema import only TypeBox and the contract's schema builders", async () => {
    const file = "electron/host/config/config-schema.ts";
    const allowed =
      'import { Type } from "@sinclair/typebox";\nimport { MapOf } from "../rpc/schema-builders.js";\n' +
      "export const s = MapOf(Type.String());\n";
    expect(await problems(file, allowed)).toEqual([]);
    for (const code of [
      'import { Vault } from "../secrets/vault.js";\nexport { Vault };\n',
      'import { method } from "../rpc/define.js";\nexport { method };\n',
      'import { z } from "zod";\nexport { z };\n',
    ])
      expect((await problems(file, code)).join("\n")).toContain(
        "config-schema.ts is shared with the contract",
      );
  });

  it.each([
    ['import OpenAI from "openai";\nexport default OpenAI;\n'],
    ['import keytar from "keytar";\nexport default keytar;\n'],
    ['import Database from "better-sqlite3";\nexport default Database;\n'],
    ['import { readFileSync } from "node:fs";\nexport { readFileSync };\n'],
    ['import { readFileSync } from "fs";\nexport { readFileSync };\n'],
    ['export const f = () => import("node:child_process");\n'],
    ['import { ipcRenderer } from "electron";\nexport { ipcRenderer };\n'],
    ['import { createHost } from "../../electron/host/create-host.js";\nexport { createHost };\n'],
  ])("the renderer may not import host-side code: %s", async (code) => {
    expect(await problems("renderer/src/a.ts", code)).not.toEqual([]);
  });

  it("lets the renderer import the contract", async () => {
    const code =
      'import type { MethodName } from "../../electron/host/rpc/contract.js";\nexport type M = MethodName;\n';
    expect(await problems("renderer/src/a.ts", code)).toEqual([]);
  });

  it.each([
    ['import keytar from "keytar";\nexport default keytar;\n'],
    ['export const k = () => import("keytar");\n'],
    [
      'import { createKeytarVault } from "../../electron/host/secrets/vault.js";\nexport { createKeytarVault };\n',
    ],
    ['import { app } from "electron";\nexport { app };\n'],
  ])("plugins may not reach the keychain, electron or the host: %s", async (code) => {
    expect(await problems("plugins/p/index.js", code)).not.toEqual([]);
  });

  it("keeps electron in the shell", async () => {
    expect(await problems("electron/main.ts", 'import { app } from "electron";\nexport { app };\n')).toEqual(
      [],
    );
    expect(
      await problems("electron/web.ts", 'import { app } from "electron";\nexport { app };\n'),
    ).not.toEqual([]);
  });
});
