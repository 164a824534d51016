// Types and JSON Schemas are written side by side for RPC params (electron/host/rpc/methods), the
// settings document (config/config-schema.ts) and plugin.yaml (plugins/catalog/manifest.ts). Until one
// is derived from the other, this test reads both with the TypeScript checker and fails on drift:
// a property only one side has, or one that is required on one side and optional on the other,
// at any depth where the schema names its properties.
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { settingsSchema } from "../../../electron/host/config/config-schema.js";
import { manifestSchema } from "../../../electron/host/plugins/catalog/manifest.js";
import { methodTable } from "../../../electron/host/rpc/contract.js";

type Schema = { [key: string]: unknown };
const root = process.cwd();
const probeFile = join(root, "test/host/rpc/__schema-drift-probe__.ts");
const probeText = `
import type { MethodName, ParamsOf } from "../../../electron/host/rpc/contract.js";
import type { SettingsDocument } from "../../../electron/host/config/config-schema.js";
import type { PluginManifest } from "../../../electron/host/plugins/catalog/manifest.js";
export type Params = { [M in MethodName]: ParamsOf<M> };
export type Settings = SettingsDocument;
export type Manifest = PluginManifest;
`;

function checker() {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (f) => (f === probeFile ? probeText : read(f));
  const exists = host.fileExists.bind(host);
  host.fileExists = (f) => f === probeFile || exists(f);
  const getSource = host.getSourceFile.bind(host);
  host.getSourceFile = (f, v, ...rest) =>
    f === probeFile ? ts.createSourceFile(f, probeText, v) : getSource(f, v, ...rest);
  const program = ts.createProgram([probeFile], options, host);
  const tc = program.getTypeChecker();
  const source = program.getSourceFile(probeFile)!;
  const alias = (name: string) => {
    const node = source.statements.find(
      (s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === name,
    )!;
    return tc.getTypeAtLocation(node.name);
  };
  return { tc, alias };
}

/** How many properties were held against their schema (so a test can tell it looked at all). */
let compared = 0;

/**
 * The differences between a type and the schema that checks it. `parsed`: the type is what the
 * parser makes of the checked document, with defaults filled in, so a key the schema leaves
 * optional may be required in the type; every key of the type must still be in the schema.
 */
function drift(
  tc: ts.TypeChecker,
  type: ts.Type,
  schema: Schema,
  path: string,
  out: string[],
  parsed = false,
): string[] {
  const bare = tc.getNonNullableType(type);
  if (schema.type === "array" && schema.items && typeof schema.items === "object") {
    const element = tc.isArrayType(bare) ? tc.getTypeArguments(bare as ts.TypeReference)[0] : undefined;
    if (element) drift(tc, element, schema.items as Schema, `${path}[]`, out, parsed);
    return out;
  }
  // A map (`Record<string, T>`): its values against `additionalProperties` or `patternProperties`.
  const valueSchemas = [
    ...(typeof schema.additionalProperties === "object" ? [schema.additionalProperties as Schema] : []),
    ...Object.values((schema.patternProperties as Record<string, Schema> | undefined) ?? {}),
  ];
  const indexType = tc.getIndexInfosOfType(bare)[0]?.type;
  if (indexType) for (const sub of valueSchemas) drift(tc, indexType, sub, `${path}.*`, out, parsed);
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (!properties || bare.isUnion()) return out;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const typeProps = new Map(tc.getPropertiesOfType(bare).map((p) => [p.getName(), p]));
  for (const [name, sub] of Object.entries(properties)) {
    const prop = typeProps.get(name);
    if (!prop) {
      out.push(`${path}.${name}: in the schema, not in the type`);
      continue;
    }
    compared += 1;
    const optional = (prop.getFlags() & ts.SymbolFlags.Optional) !== 0;
    if (required.has(name) && optional)
      out.push(`${path}.${name}: required by the schema, optional in the type`);
    if (!required.has(name) && !optional && !parsed)
      out.push(`${path}.${name}: optional in the schema, required in the type`);
    drift(tc, tc.getTypeOfSymbol(prop), sub, `${path}.${name}`, out, parsed);
  }
  if (schema.additionalProperties === false || parsed) {
    for (const name of typeProps.keys())
      if (!(name in properties)) out.push(`${path}.${name}: in the type, not in the schema`);
  }
  return out;
}

describe("types and JSON Schemas say the same", () => {
  const { tc, alias } = checker();

  it("for every RPC method's params", () => {
    const params = alias("Params");
    const found: string[] = [];
    compared = 0;
    for (const [name, spec] of Object.entries(methodTable)) {
      const prop = params.getProperty(name);
      expect(prop, name).toBeDefined();
      drift(tc, tc.getTypeOfSymbol(prop!), spec.params as Schema, name, found);
    }
    expect(found).toEqual([]);
    expect(compared).toBeGreaterThan(90);
  });

  it("for the settings document", () => {
    compared = 0;
    expect(drift(tc, alias("Settings"), settingsSchema as Schema, "config.yaml", [])).toEqual([]);
    expect(compared).toBeGreaterThan(40);
  });

  it("for plugin.yaml", () => {
    // PluginManifest is plugin.yaml as parsed: description, capabilities and pages filled in.
    expect(drift(tc, alias("Manifest"), manifestSchema as Schema, "plugin.yaml", [], true)).toEqual([]);
  });

  it("sees drift: a property only one side has, and required on one side only", () => {
    const params = alias("Params");
    const sessionSend = tc.getTypeOfSymbol(params.getProperty("session.send")!);
    const schema = methodTable["session.send"].params as Schema;
    const properties = { ...(schema.properties as object), extra: { type: "string" } };
    const found = drift(
      tc,
      sessionSend,
      { ...schema, properties, required: ["sessionId"] },
      "session.send",
      [],
    );
    expect(found).toContain("session.send.extra: in the schema, not in the type");
    expect(found).toContain("session.send.text: optional in the schema, required in the type");
    const narrowed = {
      ...schema,
      properties: { sessionId: { type: "string" } },
      additionalProperties: false,
    };
    expect(drift(tc, sessionSend, narrowed, "session.send", [])).toContain(
      "session.send.text: in the type, not in the schema",
    );
  });
});
