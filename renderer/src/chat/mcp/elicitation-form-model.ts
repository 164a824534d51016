/**
 * An elicitation's `requestedSchema` (MCP's restricted form schema: a flat object of strings,
 * numbers, booleans and enums) as form fields with their defaults, and the answers as `content`.
 * The host checks the content against the schema; the form only shapes it.
 */

export type ElicitationField =
  | {
      kind: "text";
      name: string;
      label: string;
      description: string;
      required: boolean;
      inputType: "text" | "email" | "url" | "date" | "datetime-local";
    }
  | { kind: "number"; name: string; label: string; description: string; required: boolean; integer: boolean }
  | { kind: "boolean"; name: string; label: string; description: string; required: boolean }
  | {
      kind: "choice";
      name: string;
      label: string;
      description: string;
      required: boolean;
      options: { value: string; label: string }[];
    }
  | {
      kind: "multi";
      name: string;
      label: string;
      description: string;
      required: boolean;
      options: { value: string; label: string }[];
    };

/** What the person typed or picked, per field: text for inputs, booleans, lists for multi-selects. */
export type ElicitationValues = Record<string, string | boolean | string[]>;

type Schema = Record<string, unknown>;

const asSchema = (value: unknown): Schema =>
  typeof value === "object" && value !== null ? (value as Schema) : {};
const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** `enum` (+ legacy `enumNames`) or `oneOf`/`anyOf` of `{const, title}`: the choices, labelled. */
function optionsOf(schema: Schema): { value: string; label: string }[] | null {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, i) => ({ value: String(value), label: text(names[i]) || String(value) }));
  }
  const variants = Array.isArray(schema.oneOf)
    ? schema.oneOf
    : Array.isArray(schema.anyOf)
      ? schema.anyOf
      : null;
  if (!variants) return null;
  return variants.map((variant) => {
    const v = asSchema(variant);
    return { value: String(v.const), label: text(v.title) || String(v.const) };
  });
}

const inputTypeOf = (format: unknown): "text" | "email" | "url" | "date" | "datetime-local" =>
  format === "email"
    ? "email"
    : format === "uri"
      ? "url"
      : format === "date"
        ? "date"
        : format === "date-time"
          ? "datetime-local"
          : "text";

export function fieldsOf(requestedSchema: Record<string, unknown>): ElicitationField[] {
  const properties = asSchema(requestedSchema.properties);
  const required = new Set(
    Array.isArray(requestedSchema.required) ? requestedSchema.required.map(String) : [],
  );
  return Object.entries(properties).map(([name, raw]) => {
    const schema = asSchema(raw);
    const base = {
      name,
      label: text(schema.title) || name,
      description: text(schema.description),
      required: required.has(name),
    };
    if (schema.type === "array") {
      return { kind: "multi", ...base, options: optionsOf(asSchema(schema.items)) ?? [] };
    }
    const options = optionsOf(schema);
    if (options) return { kind: "choice", ...base, options };
    if (schema.type === "boolean") return { kind: "boolean", ...base };
    if (schema.type === "number" || schema.type === "integer") {
      return { kind: "number", ...base, integer: schema.type === "integer" };
    }
    return { kind: "text", ...base, inputType: inputTypeOf(schema.format) };
  });
}

/** The form's first values: each property's `default`, else empty (unchecked, nothing picked). */
export function defaultValues(requestedSchema: Record<string, unknown>): ElicitationValues {
  const properties = asSchema(requestedSchema.properties);
  const values: ElicitationValues = {};
  for (const field of fieldsOf(requestedSchema)) {
    const fallback = asSchema(properties[field.name]).default;
    if (field.kind === "boolean") values[field.name] = fallback === true;
    else if (field.kind === "multi") values[field.name] = Array.isArray(fallback) ? fallback.map(String) : [];
    else values[field.name] = fallback === undefined || fallback === null ? "" : String(fallback);
  }
  return values;
}

/**
 * The answer as the schema's types: numbers as numbers (text the host then refuses, if it isn't
 * one), empty optional fields left out. A required field left empty is sent empty: the host names it.
 */
export function contentOf(
  fields: readonly ElicitationField[],
  values: ElicitationValues,
): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === "boolean") {
      content[field.name] = value === true;
      continue;
    }
    if (field.kind === "multi") {
      if (Array.isArray(value) && (value.length || field.required)) content[field.name] = value;
      continue;
    }
    const raw = typeof value === "string" ? value : "";
    if (raw === "" && !field.required) continue;
    if (field.kind === "number") {
      const number = Number(raw);
      content[field.name] = raw.trim() !== "" && Number.isFinite(number) ? number : raw;
      continue;
    }
    content[field.name] = raw;
  }
  return content;
}
