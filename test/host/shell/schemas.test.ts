// Start-up skips meta-schema validation of our own schemas (it costs ~100 ms per Ajv instance),
// so this is where they are held to the JSON Schema meta-schema, strictly.
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { settingsSchema } from "../../../electron/host/config/config-schema.js";
import { manifestSchema } from "../../../electron/host/plugins/catalog/manifest.js";
import { methodTable } from "../../../electron/host/rpc/contract.js";

const strict = new Ajv({ strict: false, allErrors: true });

describe("the app's own JSON Schemas", () => {
  it.each(Object.entries(methodTable))("%s params schema is valid and compiles", (_name, spec) => {
    expect(strict.validateSchema(spec.params), JSON.stringify(strict.errors)).toBe(true);
    expect(() => strict.compile(spec.params)).not.toThrow();
  });

  it("config.yaml's schema and the plugin manifest schema are valid", () => {
    for (const schema of [settingsSchema, manifestSchema]) {
      expect(strict.validateSchema(schema), JSON.stringify(strict.errors)).toBe(true);
    }
  });
});
