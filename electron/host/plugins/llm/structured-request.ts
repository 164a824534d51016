/**
 * The request `ctx.llm.completeStructured` sends (docs/contract.md §6.6): one system message (the system
 * prompt, then a one-JSON-object directive when JSON is wanted) and one user message whose first
 * text part holds the instructions, `Schema name: …` and `JSON schema:` with the schema, followed
 * by one part per input block in order.
 */
import type { CompleteStructuredParams, LlmContentPart, LlmMessage } from "../../../../plugins/sdk/types.js";
import { PluginLlmInputError } from "./llm-errors.js";

export const JSON_DIRECTIVE =
  "Answer with exactly one JSON object and nothing else: no code fence, no prose.";
export const DEFAULT_SCHEMA_NAME = "response";

export interface StructuredRequest {
  messages: LlmMessage[];
  responseFormat?: Record<string, unknown>;
  /** Whether the reply is parsed as JSON. */
  wantsJson: boolean;
  /** As the plugin spelled it, for `result.audit`; null when not given. */
  schemaName: string | null;
}

const mimePattern = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;

function inputPart(block: unknown, index: number): LlmContentPart {
  const b = (typeof block === "object" && block !== null ? block : {}) as Record<string, unknown>;
  if (b.type === "text" && typeof b.text === "string") return { type: "text", text: b.text };
  if (b.type === "image" && b.data instanceof Uint8Array) {
    if (typeof b.mimeType !== "string" || !mimePattern.test(b.mimeType)) {
      throw new PluginLlmInputError(`ctx.llm: image input ${index} needs a mimeType such as "image/png"`);
    }
    const base64 = Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength).toString("base64");
    return { type: "image_url", image_url: { url: `data:${b.mimeType};base64,${base64}` } };
  }
  if (b.type === "image" && typeof b.url === "string" && b.url !== "") {
    return { type: "image_url", image_url: { url: b.url } };
  }
  throw new PluginLlmInputError(
    `ctx.llm: Unknown input block at input[${index}]; use {type: "text", text}, {type: "image", data, mimeType} or {type: "image", url}.`,
  );
}

/** The name the wire format allows (`[A-Za-z0-9_-]{1,64}`); the prompt keeps the plugin's spelling. */
export function wireSchemaName(name: string | undefined): string {
  const cleaned = (name ?? "").replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
  return cleaned || DEFAULT_SCHEMA_NAME;
}

function optionalText(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") {
    throw new PluginLlmInputError(`ctx.llm.completeStructured: "${name}" must be a string.`);
  }
  return value;
}

/** Checks the arguments (PluginLlmInputError, before anything is sent) and lays out the request. */
export function buildStructuredRequest(params: Partial<CompleteStructuredParams>): StructuredRequest {
  if (typeof params.instructions !== "string" || params.instructions.trim() === "") {
    throw new PluginLlmInputError("ctx.llm.completeStructured needs non-empty instructions.");
  }
  if (!Array.isArray(params.input) || params.input.length === 0) {
    throw new PluginLlmInputError("ctx.llm.completeStructured needs at least one input block.");
  }
  const schema = params.jsonSchema;
  if (schema !== undefined && (typeof schema !== "object" || schema === null || Array.isArray(schema))) {
    throw new PluginLlmInputError("ctx.llm.completeStructured: jsonSchema must be a JSON Schema object.");
  }
  const systemPrompt = optionalText(params.systemPrompt, "systemPrompt");
  const schemaName = optionalText(params.schemaName, "schemaName");
  const parts = params.input.map(inputPart);
  const wantsJson = schema !== undefined || params.jsonMode === true;

  const system = [systemPrompt?.trim() ?? "", wantsJson ? JSON_DIRECTIVE : ""].filter(Boolean).join("\n\n");
  const lead = [
    params.instructions,
    schemaName ? `Schema name: ${schemaName}` : "",
    schema ? `JSON schema:\n${JSON.stringify(schema, null, 2)}` : "",
  ]
    .filter(Boolean)
    .join("\n\n");

  const messages: LlmMessage[] = [];
  if (system) messages.push({ role: "system", content: system });
  messages.push({ role: "user", content: [{ type: "text", text: lead }, ...parts] });

  const responseFormat = schema
    ? { type: "json_schema", json_schema: { name: wireSchemaName(schemaName), schema } }
    : params.jsonMode === true
      ? { type: "json_object" }
      : undefined;
  return { messages, wantsJson, schemaName: schemaName || null, ...(responseFormat && { responseFormat }) };
}
