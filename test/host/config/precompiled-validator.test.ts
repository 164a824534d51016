// The build puts the settings validator in precompiled (scripts/precompiled-validator.mjs, ajv's
// standalone code); the tests run it compiled at run time. Both must be the same validator: the
// same verdict and the same errors (with `verbose`'s schemas, which name the "must be …" phrase).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ValidateFunction } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSettings, settingsSchema } from "../../../electron/host/config/config-schema.js";
import {
  compileSettingsValidator,
  SETTINGS_AJV_OPTIONS,
} from "../../../electron/host/config/settings-validator.js";
// @ts-expect-error: a build script in plain JavaScript, without types
import { precompiledValidatorModule } from "../../../scripts/precompiled-validator.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const ajvRuntime = pathToFileURL(join(root, "node_modules", "ajv", "dist", "runtime")).href;

/** One document per kind of error the messages handle (schema-issues.ts), and valid ones. */
const documents: Record<string, unknown>[] = [
  {},
  defaultSettings() as unknown as Record<string, unknown>,
  {
    providers: { bench: { name: "Bench", base_url: "http://127.0.0.1:1/v1" } },
    model: { provider: "bench", model: "m" },
  },
  { providers: { "-bad": { name: "x", base_url: "https://x" } } },
  { providers: { ok: { name: "x", base_url: "ftp://x" } } },
  { providers: { ok: { name: "x" } } },
  { providers: { ok: { name: "", base_url: "https://x" } } },
  { display: { busy_input_mode: "loud", skin: "dark" } },
  { auxiliary: { "Bad-Key": {}, vision: { timeout: "30", extra_body: [] } } },
  {
    plugins: {
      enabled: ["ok", "Not OK", "ok"],
      entries: { x: { capabilities_consent: { hash: "nope", granted_at: "y" } } },
    },
  },
  { mcp_servers: { both: { command: "npx", url: "https://x" }, neither: {}, "Bad Id": { command: "x" } } },
  { mcp_servers: { t: { command: "x", timeout: -1, approval: "sometimes", args: "not a list" } } },
  { security: { redact_secrets: "yes" }, chat: 42, fallback_providers: [{ provider: "BAD", model: 1 }] },
];

/** The errors as JSON: TypeBox's symbol-keyed type tags ride on the run-time `parentSchema`s but
 *  are no part of the schema, and the standalone code's schemas are written out without them. */
function plain(errors: ValidateFunction["errors"]): unknown {
  return errors ? JSON.parse(JSON.stringify(errors)) : null;
}

describe("the precompiled settings validator", () => {
  let dir: string;
  let precompiled: ValidateFunction;
  let compiled: ValidateFunction;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "hermes-validator-"));
    const file = join(dir, "settings-validator.mjs");
    writeFileSync(file, precompiledValidatorModule(SETTINGS_AJV_OPTIONS, settingsSchema, ajvRuntime));
    const module = (await import(pathToFileURL(file).href)) as {
      compileSettingsValidator(): ValidateFunction;
    };
    precompiled = module.compileSettingsValidator();
    compiled = compileSettingsValidator();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("gives the same verdict and the same errors as the validator compiled at run time", () => {
    let invalid = 0;
    for (const doc of documents) {
      const verdict = compiled(doc);
      expect(precompiled(doc), JSON.stringify(doc)).toBe(verdict);
      expect(plain(precompiled.errors)).toEqual(plain(compiled.errors));
      if (!verdict) invalid++;
    }
    // The documents above do reach the error paths.
    expect(invalid).toBe(documents.length - 3);
  });

  it("imports each of ajv's run-time helpers it uses instead of requiring them", () => {
    const source: string = precompiledValidatorModule(
      { strict: true },
      {
        type: "array",
        uniqueItems: true,
        items: { anyOf: [{ type: "object" }, { type: "string", maxLength: 3 }] },
      },
    );
    expect(source).not.toMatch(/\brequire\(/);
    expect(source).toContain('from "ajv/dist/runtime/equal.js"');
    expect(source).toContain('from "ajv/dist/runtime/ucs2length.js"');
  });
});
