/**
 * `plugin.yaml` (docs/contract.md §5.1): parsed with `yaml`, validated with a JSON Schema (ajv)
 * written with TypeBox, from which the manifest's types derive. Unknown keys and unknown
 * capability ids warn; anything else that is wrong refuses the plugin with a reason the Plugins
 * page shows.
 */
import path from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { parse as parseYaml } from "yaml";
import { PLUGIN_ID_PATTERN } from "../../config/config-schema.js";
import { isCapabilityId } from "../capabilities/capabilities.js";

export const MANIFEST_FILE = "plugin.yaml";

const relativePath = Type.String({ minLength: 1, description: "a path relative to the plugin folder" });

const pluginPageSchema = Type.Object(
  {
    id: Type.String({ pattern: "^[a-z0-9_-]{1,64}$", description: "a page id (a-z, 0-9, _ and -)" }),
    title: Type.String({ minLength: 1, maxLength: 120 }),
    entry: relativePath,
  },
  { additionalProperties: false },
);
export type PluginPage = Static<typeof pluginPageSchema>;

/** Unknown top-level keys are let through (and warned about), so authors can add their own. */
export const manifestSchema = Type.Object({
  /** The plugin id. */
  name: Type.String({ pattern: PLUGIN_ID_PATTERN, description: "a plugin id: 1 to 64 of a-z, 0-9, _ and -" }),
  version: Type.String({ minLength: 1, maxLength: 64, description: "a version such as 1.0.0" }),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  /** Relative to the plugin folder; always inside it. */
  main: relativePath,
  capabilities: Type.Optional(Type.Array(Type.String(), { description: "a list of capability ids" })),
  pages: Type.Optional(Type.Array(pluginPageSchema)),
});

/**
 * plugin.yaml as parsed: every key present (description "", no capabilities or pages), only
 * known capability ids (unknown ones are dropped with a warning), paths inside the plugin folder.
 */
export type PluginManifest = Required<Static<typeof manifestSchema>>;

export type ManifestResult =
  | { ok: true; manifest: PluginManifest; warnings: string[] }
  | { ok: false; reason: string; warnings: string[] };

const KNOWN_KEYS = Object.keys(manifestSchema.properties);

// Compiled on first use, off the start-up path; the schema itself is checked by a test.
let validateManifest: ValidateFunction | undefined;
const validate = (doc: unknown): doc is Static<typeof manifestSchema> =>
  (validateManifest ??= new Ajv({
    allErrors: false,
    strict: false,
    verbose: true,
    validateSchema: false,
  }).compile(manifestSchema))(doc);

function describe(error: ErrorObject): string {
  const where = error.instancePath.split("/").filter(Boolean).join(".");
  if (error.keyword === "required") {
    const key = (error.params as { missingProperty: string }).missingProperty;
    return `${MANIFEST_FILE} needs "${[where, key].filter(Boolean).join(".")}"`;
  }
  const description = (error.parentSchema as { description?: string } | undefined)?.description;
  const detail = description ? `must be ${description}` : (error.message ?? "is invalid");
  return `${MANIFEST_FILE}: "${where || "(top level)"}" ${detail}`;
}

/** True when `relative` resolves to a path inside `dir` (not `dir` itself). */
export function staysInside(dir: string, relative: string): boolean {
  if (path.isAbsolute(relative)) return false;
  const target = path.resolve(dir, relative);
  const rel = path.relative(dir, target);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

export function parseManifest(text: string, dir: string): ManifestResult {
  const warnings: string[] = [];
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { ok: false, reason: `${MANIFEST_FILE} is not valid YAML: ${detail}`, warnings };
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, reason: `${MANIFEST_FILE} must be a mapping with name, version and main`, warnings };
  }
  const doc = raw as Record<string, unknown>;
  for (const key of Object.keys(doc)) {
    if (!KNOWN_KEYS.includes(key)) warnings.push(`${MANIFEST_FILE}: unknown key "${key}" is ignored`);
  }
  // `version: 1.2` is a number in YAML; authors mean the string.
  if (typeof doc.version === "number") doc.version = String(doc.version);
  if (!validate(doc)) {
    const first = validateManifest?.errors?.[0];
    return { ok: false, reason: first ? describe(first) : `${MANIFEST_FILE} is invalid`, warnings };
  }
  const main = doc.main;
  if (!staysInside(dir, main)) {
    return {
      ok: false,
      reason: `${MANIFEST_FILE}: main "${main}" points outside the plugin folder; use a path inside it`,
      warnings,
    };
  }
  const pages = doc.pages ?? [];
  const badPage = pages.find((page) => !staysInside(dir, page.entry));
  if (badPage) {
    return {
      ok: false,
      reason: `${MANIFEST_FILE}: page "${badPage.id}" entry points outside the plugin folder`,
      warnings,
    };
  }
  const capabilities: string[] = [];
  for (const id of doc.capabilities ?? []) {
    if (!isCapabilityId(id)) warnings.push(`${MANIFEST_FILE}: unknown capability "${id}" is dropped`);
    else if (!capabilities.includes(id)) capabilities.push(id);
  }
  return {
    ok: true,
    manifest: {
      name: doc.name,
      version: doc.version,
      description: doc.description ?? "",
      main,
      capabilities,
      pages: pages.map(({ id, title, entry }) => ({ id, title, entry })),
    },
    warnings,
  };
}
