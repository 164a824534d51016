/**
 * `plugin.yaml` (docs/contract.md §5.1): parsed with `yaml`, validated with a JSON Schema (ajv). Unknown keys
 * and unknown capability ids warn; anything else that is wrong refuses the plugin with a reason
 * the Plugins page shows.
 */
import path from "node:path";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { parse as parseYaml } from "yaml";
import { PLUGIN_ID_PATTERN } from "../../config/config-schema.js";
import { isCapabilityId } from "../capabilities/capabilities.js";

export const MANIFEST_FILE = "plugin.yaml";

export interface PluginPage {
  id: string;
  title: string;
  entry: string;
}

export interface PluginManifest {
  /** The plugin id. */
  name: string;
  version: string;
  description: string;
  /** Relative to the plugin folder; always inside it. */
  main: string;
  /** Known capability ids only (unknown ones are dropped with a warning). */
  capabilities: string[];
  pages: PluginPage[];
}

export type ManifestResult =
  | { ok: true; manifest: PluginManifest; warnings: string[] }
  | { ok: false; reason: string; warnings: string[] };

const KNOWN_KEYS = ["name", "version", "description", "main", "capabilities", "pages"];

const relativePath = {
  type: "string",
  minLength: 1,
  description: "a path relative to the plugin folder",
};

export const manifestSchema = {
  type: "object",
  required: ["name", "version", "main"],
  properties: {
    name: {
      type: "string",
      pattern: PLUGIN_ID_PATTERN,
      description: "a plugin id: 1 to 64 of a-z, 0-9, _ and -",
    },
    version: { type: "string", minLength: 1, maxLength: 64, description: "a version such as 1.0.0" },
    description: { type: "string", maxLength: 1000 },
    main: relativePath,
    capabilities: { type: "array", items: { type: "string" }, description: "a list of capability ids" },
    pages: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "title", "entry"],
        properties: {
          id: { type: "string", pattern: "^[a-z0-9_-]{1,64}$", description: "a page id (a-z, 0-9, _ and -)" },
          title: { type: "string", minLength: 1, maxLength: 120 },
          entry: relativePath,
        },
      },
    },
  },
} as const;

// Compiled on first use, off the start-up path; the schema itself is checked by a test.
let validateManifest: ValidateFunction | undefined;
const validate = (doc: unknown): boolean =>
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
  const main = doc.main as string;
  if (!staysInside(dir, main)) {
    return {
      ok: false,
      reason: `${MANIFEST_FILE}: main "${main}" points outside the plugin folder; use a path inside it`,
      warnings,
    };
  }
  const pages = (doc.pages as PluginPage[] | undefined) ?? [];
  const badPage = pages.find((page) => !staysInside(dir, page.entry));
  if (badPage) {
    return {
      ok: false,
      reason: `${MANIFEST_FILE}: page "${badPage.id}" entry points outside the plugin folder`,
      warnings,
    };
  }
  const capabilities: string[] = [];
  for (const id of (doc.capabilities as string[] | undefined) ?? []) {
    if (!isCapabilityId(id)) warnings.push(`${MANIFEST_FILE}: unknown capability "${id}" is dropped`);
    else if (!capabilities.includes(id)) capabilities.push(id);
  }
  return {
    ok: true,
    manifest: {
      name: doc.name as string,
      version: doc.version as string,
      description: (doc.description as string | undefined) ?? "",
      main,
      capabilities,
      pages: pages.map(({ id, title, entry }) => ({ id, title, entry })),
    },
    warnings,
  };
}
