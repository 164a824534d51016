/**
 * Renders docs/rpc-reference.md from the contract itself — the method table, its param schemas and
 * types, and the event table — so the reference cannot drift: `npm run docs` writes it and a test
 * fails when the committed file differs from what the contract says now.
 */
import { fileURLToPath } from "node:url";
import { dirname, join, relative } from "node:path";
import { writeFileSync } from "node:fs";
import ts from "typescript";
import { methodTable, type MethodName } from "../../electron/host/rpc/contract.js";
import { eventTable, type EventName } from "../../electron/host/rpc/events.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const rpcDir = join(root, "electron", "host", "rpc");
export const referencePath = join(root, "docs", "rpc-reference.md");

const options: ts.CompilerOptions = {
  strict: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  noEmit: true,
  skipLibCheck: true,
};
const flags =
  ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/** A throwaway module next to the contract whose aliases ask the checker for each type. */
function typeTexts(
  aliases: Record<string, string>,
  /** Per alias, the order its schema lists the fields in (a type derived from a schema keeps no order). */
  fieldOrder: Record<string, string[]> = {},
): { text: Map<string, string>; named: Map<string, string> } {
  const probe = join(rpcDir, "__reference_probe__.ts");
  const source =
    `import type { ParamsOf, ResultOf } from "./contract.js";\nimport type { EventPayloads } from "./events.js";\n` +
    Object.entries(aliases)
      .map(([alias, type]) => `export type ${alias} = ${type};`)
      .join("\n");
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (file, language, ...rest) =>
    file === probe ? ts.createSourceFile(file, source, language) : getSourceFile(file, language, ...rest);
  host.fileExists = (file) => file === probe || fileExists(file);
  const program = ts.createProgram([probe], options, host);
  const checker = program.getTypeChecker();
  const text = new Map<string, string>();
  const named = new Map<string, string>();

  // Named types the answers mention (interfaces, aliases of the contract or the plugin SDK) are
  // listed once with their declaration, comments included.
  const collect = (type: ts.Type, seen = new Set<ts.Type>()) => {
    if (seen.has(type)) return;
    seen.add(type);
    const symbol = type.aliasSymbol ?? type.getSymbol();
    const declaration = symbol?.declarations?.[0];
    const file = declaration?.getSourceFile().fileName ?? "";
    const ours = file.startsWith(root) && !file.includes("node_modules") && file !== probe;
    if (symbol && declaration && ours && (ts.isInterfaceDeclaration(declaration) || ts.isTypeAliasDeclaration(declaration))) {
      if (!named.has(symbol.name)) {
        named.set(symbol.name, `// ${relative(root, file)}\n${declaration.getFullText().trim()}`);
        for (const prop of checker.getPropertiesOfType(type))
          collect(checker.getTypeOfSymbolAtLocation(prop, declaration), seen);
      }
      return;
    }
    if (type.isUnionOrIntersection()) for (const t of type.types) collect(t, seen);
    for (const prop of checker.getPropertiesOfType(type)) {
      const decl = prop.valueDeclaration ?? prop.declarations?.[0];
      if (decl) collect(checker.getTypeOfSymbolAtLocation(prop, decl), seen);
    }
    for (const arg of checker.getTypeArguments(type as ts.TypeReference) ?? []) collect(arg, seen);
    const element = checker.getIndexTypeOfType(type, ts.IndexKind.Number);
    if (element) collect(element, seen);
  };

  const sourceFile = program.getSourceFile(probe)!;
  for (const statement of sourceFile.statements) {
    if (!ts.isTypeAliasDeclaration(statement)) continue;
    const type = checker.getTypeAtLocation(statement.name);
    // `Record<string, never>` is how the contract spells "no fields".
    const plain = checker.typeToString(type, undefined, flags).replace("{ [x: string]: never; }", "{}");
    // An object type written out: its fields in the schema's order.
    const order = fieldOrder[statement.name.text];
    const fields = checker.getPropertiesOfType(type);
    const inOrder =
      order && plain.startsWith("{ ") && fields.length === order.length
        ? order.map((name) => fields.find((field) => field.name === name))
        : [];
    const fieldText = (field: ts.Symbol) =>
      `${field.name}${field.getFlags() & ts.SymbolFlags.Optional ? "?" : ""}: ${checker.typeToString(
        checker.getTypeOfSymbol(field),
        undefined,
        flags & ~ts.TypeFormatFlags.InTypeAlias,
      )};`;
    text.set(
      statement.name.text,
      inOrder.length && inOrder.every((field) => field !== undefined)
        ? `{ ${inOrder.map((field) => fieldText(field!)).join(" ")} }`
        : plain,
    );
    collect(type);
  }
  return { text, named };
}

/** JSON with `type` first in every schema object, as the schemas read when written by hand. */
const schemaJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) && "type" in v
      ? Object.assign({ type: (v as { type: unknown }).type }, v)
      : v,
  );

function paramsNotes(schema: Record<string, unknown>): string[] {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, prop]) => {
    const rules = Object.entries(prop)
      .filter(([key]) => key !== "type" && key !== "description")
      .map(([key, value]) => `${key} ${schemaJson(value)}`);
    return `\`${name}\`${required.has(name) ? "" : " (optional)"}${rules.length ? `: ${rules.join(", ")}` : ""}`;
  });
}

export function renderReference(): string {
  const methods = Object.keys(methodTable) as MethodName[];
  const events = Object.keys(eventTable) as EventName[];
  const aliases: Record<string, string> = {};
  const fieldOrder: Record<string, string[]> = {};
  methods.forEach((name, i) => {
    aliases[`P${i}`] = `ParamsOf<${JSON.stringify(name)}>`;
    fieldOrder[`P${i}`] = Object.keys((methodTable[name].params as { properties?: object }).properties ?? {});
    aliases[`R${i}`] = `ResultOf<${JSON.stringify(name)}>`;
  });
  events.forEach((name, i) => (aliases[`E${i}`] = `EventPayloads[${JSON.stringify(name)}]`));
  const { text, named } = typeTexts(aliases, fieldOrder);

  const out: string[] = [
    "# RPC and event reference",
    "",
    "Generated from the contract (`electron/host/rpc/`) by `npm run docs`; a test fails when this",
    "file and the contract disagree. Transport, frames and error reasons: see",
    "[ARCHITECTURE.md](ARCHITECTURE.md#the-contract).",
    "",
    "## Methods",
    "",
  ];
  methods.forEach((name, i) => {
    const schema = methodTable[name].params as Record<string, unknown>;
    out.push(`### \`${name}\``, "", `- params: \`${text.get(`P${i}`)}\``);
    for (const note of paramsNotes(schema)) out.push(`  - ${note}`);
    if (schema.additionalProperties === false) out.push("  - no other fields");
    out.push(`- result: \`${text.get(`R${i}`)}\``, "");
  });
  out.push(
    "### `plugin.<id>.<method>`",
    "",
    "- params: the plugin's own JSON object, plus `session_id` (the session its page is shown with)",
    "- result: the handler's JSON value (`ctx.registerRpc`, docs/contract.md §8)",
    "- reasons: `plugin_not_found` (unknown or disabled plugin), `method_not_found`, `invalid_params`,",
    "  `plugin_rpc_failed` (the handler threw or answered something that is not JSON), `plugin_timeout`",
    "  (60 s), `plugin_unresponsive`, `plugin_busy` (too many calls of that plugin in flight)",
    "",
  );
  out.push("## Events", "", "Frames: `{\"jsonrpc\":\"2.0\",\"method\":\"event\",\"params\":{\"type\",\"session_id\",\"payload\"}}`.", "");
  out.push(
    "A connection hears every event until it calls `events.subscribe {topics}`; from then on only its topics' events (and `host`'s, always).",
    "",
  );
  out.push("| event | `session_id` | topic | payload | meaning |", "| --- | --- | --- | --- | --- |");
  events.forEach((name, i) => {
    const { scope, topic, doc } = eventTable[name];
    const payload = (text.get(`E${i}`) ?? "").replace(/\|/g, "\\|");
    const topicName = topic === "session" ? "`session:<id>`" : `\`${topic}\``;
    out.push(
      `| \`${name}\` | ${scope === "session" ? "the session's id" : "null"} | ${topicName} | \`${payload}\` | ${doc} |`,
    );
  });
  out.push(
    "| `plugin.<id>.<event>` | the session's id | `plugin:<id>` | the plugin's JSON object | A plugin's session event (`ctx.emitToSession`); a plugin page hears only its own plugin's, for its session. |",
  );
  out.push("", "## Types", "");
  for (const [, declaration] of [...named].sort(([a], [b]) => a.localeCompare(b)))
    out.push("```ts", declaration, "```", "");
  return out.join("\n").trimEnd() + "\n";
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(referencePath, renderReference());
  console.log(`wrote ${relative(root, referencePath)}`);
}
