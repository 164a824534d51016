// RPC params, the settings document and plugin.yaml are written once, as TypeBox schemas, and
// their types derived from them (test/host/rpc/one-source.typecheck.ts), so those cannot drift.
// What is still written twice is a narrowing: a params type that says more than its schema
// (`narrowedTo<P>()`, `narrowed(schema).to<T>()`: model.set's union, settings.set's typed key and
// value, mcp.complete's ref, mcp.save's block). The compiler makes it fit the schema, but a field
// only the narrowed type has would pass; this test reads both with the TypeScript checker and
// fails on drift: a property only one side has, or one that is required on one side and optional
// on the other, at any depth where the schema names its properties.
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { methodTable } from "../../../electron/host/rpc/contract.js";

type Schema = { [key: string]: unknown };
const root = process.cwd();
const probeFile = join(root, "test/host/rpc/__schema-drift-probe__.ts");
const probeText = `
import type { MethodName, ParamsOf } from "../../../electron/host/rpc/contract.js";
export type Params = { [M in MethodName]: ParamsOf<M> };
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

/** The differences between a type and the schema that checks it. */
function drift(tc: ts.TypeChecker, type: ts.Type, schema: Schema, path: string, out: string[]): string[] {
  const bare = tc.getNonNullableType(type);
  if (schema.type === "array" && schema.items && typeof schema.items === "object") {
    const element = tc.isArrayType(bare) ? tc.getTypeArguments(bare as ts.TypeReference)[0] : undefined;
    if (element) drift(tc, element, schema.items as Schema, `${path}[]`, out);
    return out;
  }
  // A map (`Record<string, T>`): its values against `additionalProperties` or `patternProperties`.
  const valueSchemas = [
    ...(typeof schema.additionalProperties === "object" ? [schema.additionalProperties as Schema] : []),
    ...Object.values((schema.patternProperties as Record<string, Schema> | undefined) ?? {}),
  ];
  const indexType = tc.getIndexInfosOfType(bare)[0]?.type;
  if (indexType) for (const sub of valueSchemas) drift(tc, indexType, sub, `${path}.*`, out);
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
    if (!required.has(name) && !optional)
      out.push(`${path}.${name}: optional in the schema, required in the type`);
    drift(tc, tc.getTypeOfSymbol(prop), sub, `${path}.${name}`, out);
  }
  if (schema.additionalProperties === false) {
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
