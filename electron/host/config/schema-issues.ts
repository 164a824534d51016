import type { ErrorObject, ValidateFunction } from "ajv";
import type { DocumentIssue } from "./config-errors.js";
import { findSecretsUnderProviders } from "./secret-guard.js";
import { compileSettingsValidator } from "./settings-validator.js";

export type { DocumentIssue };

// Made on first use, not at start-up: a first launch (no config.yaml) never needs it.
let validator: ValidateFunction | null = null;
export function settingsValidator(): ValidateFunction {
  validator ??= compileSettingsValidator();
  return validator;
}

/** Every problem with a settings document: credentials under `providers` first, then the schema. */
export function findDocumentIssues(doc: Record<string, unknown>): DocumentIssue[] {
  // The empty document (no config.yaml yet) is every default, which the schema accepts (tested).
  if (Object.keys(doc).length === 0) return [];
  const issues = findSecretsUnderProviders(doc);
  const validateSettings = settingsValidator();
  const seen = new Set(issues.map((issue) => issue.key));
  if (!validateSettings(doc)) {
    for (const error of validateSettings.errors ?? []) {
      const issue = describeError(error);
      if (!issue || seen.has(issue.key)) continue;
      // A secret already explains this property; the schema's "unknown setting" adds nothing.
      if (issues.some((secret) => issue.key.startsWith(`${secret.key}.`))) continue;
      seen.add(issue.key);
      issues.push(issue);
    }
  }
  return issues;
}

function pathOf(instancePath: string): string[] {
  if (instancePath === "") return [];
  return instancePath
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function describeError(error: ErrorObject): DocumentIssue | null {
  // Errors inside `propertyNames` repeat the outer "propertyNames" error; keep only the outer.
  if (error.propertyName !== undefined) return null;
  const path = pathOf(error.instancePath);
  const parentSchema = (error.parentSchema ?? {}) as Record<string, unknown>;
  const description = typeof parentSchema["description"] === "string" ? parentSchema["description"] : null;
  const at = (segments: string[], message: string): DocumentIssue => ({
    key: segments.join(".") || "(top level)",
    repairPath: segments,
    message: `${segments.join(".") || "config.yaml"} ${message}`,
  });
  const params = error.params as Record<string, unknown>;

  switch (error.keyword) {
    case "required": {
      const missing = String(params["missingProperty"]);
      const key = [...path, missing].join(".");
      // The incomplete object cannot run at all, so it is what gets removed.
      return { key, repairPath: path, message: `${key} is required` };
    }
    case "additionalProperties": {
      const extra = String(params["additionalProperty"]);
      const known = Object.keys((parentSchema["properties"] ?? {}) as object);
      return at([...path, extra], `is not a known setting (allowed here: ${known.join(", ")})`);
    }
    case "propertyNames": {
      const name = String(params["propertyName"]);
      const names = (parentSchema["propertyNames"] ?? {}) as Record<string, unknown>;
      const what = typeof names["description"] === "string" ? names["description"] : "a valid name";
      return at([...path, name], `is not a valid name here: it must be ${what}`);
    }
    case "enum": {
      const allowed = (params["allowedValues"] as unknown[]).map((v) => (v === "" ? '""' : String(v)));
      return at(path, `must be one of ${allowed.join(", ")}${found(path, error.data)}`);
    }
    case "type":
      return at(path, `must be ${typePhrase(String(params["type"]))}`);
    case "not": {
      // The `not` schema says in its description what holding both means (mcp_servers: command + url).
      const not = (error.schema ?? {}) as Record<string, unknown>;
      return at(path, typeof not["description"] === "string" ? not["description"] : "is invalid");
    }
    case "if":
      // Its `then` error (the missing key) already says what to fix.
      return null;
    case "minLength":
      return at(path, "must not be empty");
    case "uniqueItems":
      return at(path, "must not list the same value twice");
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "pattern":
      return at(path, description ? `must be ${description}` : `is invalid (${error.message ?? ""})`);
    default:
      return at(path, error.message ?? "is invalid");
  }
}

function typePhrase(type: string): string {
  const phrases: Record<string, string> = {
    object: "a mapping (key: value pairs)",
    array: "a list",
    string: "a string",
    number: "a number",
    boolean: "true or false",
  };
  return phrases[type] ?? `of type ${type}`;
}

/** Echo a short offending value, but never anything under `providers` (it may be a key). */
function found(path: string[], data: unknown): string {
  if (path[0] === "providers") return "";
  const text = JSON.stringify(data);
  return text !== undefined && text.length <= 40 ? ` (found ${text})` : "";
}
