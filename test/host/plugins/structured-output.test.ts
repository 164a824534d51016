import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CompleteStructuredParams, InputBlock } from "../../../plugins/sdk/types.js";
import { JSON_DIRECTIVE } from "../../../electron/host/plugins/llm/structured-request.js";
import { parseJsonReply } from "../../../electron/host/plugins/llm/json-reply.js";
import { auditLines, startRig, type Rig } from "./plugin-rig.js";

const ID = "shaper";
const schema = {
  type: "object",
  properties: { kind: { type: "string" }, score: { type: "number" } },
  required: ["kind"],
  additionalProperties: false,
};
let rig: Rig;

beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => rig.dispose());
beforeEach(() => rig.provider.reset());

const structured = (params: Partial<CompleteStructuredParams> = {}) =>
  rig.llm.completeStructured(ID, {
    instructions: "Pick a chart kind.",
    input: [{ type: "text", text: "a,b\n1,2" }],
    jsonSchema: schema,
    schemaName: "chart.kind",
    ...params,
  });

type SentBody = { messages: { role: string; content: unknown }[]; response_format?: unknown; model: string };
const sent = () => rig.provider.lastRequest()!.body as SentBody;

describe("completeStructured: replies", () => {
  it("valid JSON is parsed and validated", async () => {
    rig.provider.enqueue({ kind: "json", value: { kind: "bar", score: 0.9 } });
    const result = await structured();
    expect(result.contentType).toBe("json");
    expect(result.parsed).toEqual({ kind: "bar", score: 0.9 });
    expect(result.audit).toEqual({
      pluginId: ID,
      purpose: null,
      profile: null,
      task: null,
      schemaName: "chart.kind",
    });
  });

  it("JSON in a code fence is parsed", async () => {
    rig.provider.enqueue('```json\n{"kind": "line"}\n```');
    const result = await structured();
    expect(result).toMatchObject({ contentType: "json", parsed: { kind: "line" } });
  });

  it("prose, then fenced JSON, is parsed", async () => {
    rig.provider.enqueue('Sure! Here is the answer:\n\n```\n{"kind": "pie"}\n```\nHope that helps.');
    const result = await structured();
    expect(result).toMatchObject({ contentType: "json", parsed: { kind: "pie" } });
  });

  it("a reply that is not JSON comes back as text with parsed null", async () => {
    rig.provider.enqueue("I cannot decide, see [1] for details.");
    const result = await structured();
    expect(result.contentType).toBe("text");
    expect(result.parsed).toBeNull();
    expect(result.text).toBe("I cannot decide, see [1] for details.");
  });

  it("JSON that breaks the schema raises PluginLlmSchemaError (and is still audited and billed)", async () => {
    rig.provider.enqueue({ kind: "json", value: { kind: 42 } });
    const error = await structured({ sessionId: "s-schema" }).catch((e: Error) => e);
    expect((error as Error).name).toBe("PluginLlmSchemaError");
    expect((error as Error).message).toContain("did not match schema");
    expect(auditLines(rig).at(-1)).toContain("outcome=error");
    expect(rig.billed.at(-1)).toMatchObject({ sessionId: "s-schema", category: `plugin_llm:${ID}` });
  });

  it("without jsonSchema or jsonMode the reply is not parsed", async () => {
    rig.provider.enqueue('{"kind": "bar"}');
    const result = await structured({ jsonSchema: undefined, schemaName: undefined });
    expect(result).toMatchObject({ contentType: "text", parsed: null });
    expect(sent().response_format).toBeUndefined();
    expect(sent().messages.map((m) => m.role)).toEqual(["user"]);
  });

  it("jsonMode alone asks for json_object and parses", async () => {
    rig.provider.enqueue('{"any": [1, 2]}');
    const result = await structured({ jsonSchema: undefined, jsonMode: true });
    expect(sent().response_format).toEqual({ type: "json_object" });
    expect(result).toMatchObject({ contentType: "json", parsed: { any: [1, 2] } });
  });
});

describe("completeStructured: the request", () => {
  it("has the exact message layout: system prompt + JSON directive, then instructions, schema name, schema, inputs", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    rig.provider.enqueue('{"kind": "bar"}');
    await structured({
      systemPrompt: "You are a chart expert.",
      input: [
        { type: "text", text: "first" },
        { type: "image", data: png, mimeType: "image/png" },
        { type: "image", url: "https://example.invalid/chart.png" },
      ],
    });
    const body = sent();
    expect(body.messages).toEqual([
      { role: "system", content: `You are a chart expert.\n\n${JSON_DIRECTIVE}` },
      {
        role: "user",
        content: [
          {
            type: "text",
            text: `Pick a chart kind.\n\nSchema name: chart.kind\n\nJSON schema:\n${JSON.stringify(schema, null, 2)}`,
          },
          { type: "text", text: "first" },
          {
            type: "image_url",
            image_url: { url: `data:image/png;base64,${Buffer.from(png).toString("base64")}` },
          },
          { type: "image_url", image_url: { url: "https://example.invalid/chart.png" } },
        ],
      },
    ]);
    expect(body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "chart_kind", schema },
    });
  });

  it('without schemaName: no Schema name line, and the wire name defaults to "response"', async () => {
    rig.provider.enqueue('{"kind": "bar"}');
    const result = await structured({ schemaName: undefined });
    const [system, user] = sent().messages;
    expect(system).toEqual({ role: "system", content: JSON_DIRECTIVE });
    expect((user!.content as { text: string }[])[0]!.text).toBe(
      `Pick a chart kind.\n\nJSON schema:\n${JSON.stringify(schema, null, 2)}`,
    );
    expect(sent().response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "response", schema },
    });
    expect(result.audit.schemaName).toBeNull();
  });

  it("jsonMode without a system prompt sends the directive alone, and the instructions alone as the first part", async () => {
    rig.provider.enqueue('{"x": 1}');
    await structured({ jsonSchema: undefined, schemaName: undefined, jsonMode: true });
    expect(sent().messages).toEqual([
      { role: "system", content: JSON_DIRECTIVE },
      {
        role: "user",
        content: [
          { type: "text", text: "Pick a chart kind." },
          { type: "text", text: "a,b\n1,2" },
        ],
      },
    ]);
  });

  it("a system prompt without JSON is sent as is, with no directive", async () => {
    rig.provider.enqueue("plain");
    const result = await structured({
      jsonSchema: undefined,
      schemaName: undefined,
      systemPrompt: "Be brief.",
    });
    expect(sent().messages[0]).toEqual({ role: "system", content: "Be brief." });
    expect(result).toMatchObject({ contentType: "text", parsed: null, text: "plain" });
  });

  it("encodes only the bytes of the view it is given (a Buffer slice), with its mime type", async () => {
    const whole = Buffer.from("XXXXhello-imageYYYY");
    const slice = whole.subarray(4, 15);
    rig.provider.enqueue('{"kind": "bar"}');
    await structured({ input: [{ type: "image", data: slice, mimeType: "image/webp" }] });
    const parts = sent().messages[1]!.content as { type: string; image_url?: { url: string } }[];
    expect(parts[1]).toEqual({
      type: "image_url",
      image_url: { url: `data:image/webp;base64,${Buffer.from("hello-image").toString("base64")}` },
    });
  });

  it("refuses bad input before any request", async () => {
    const cases: [Partial<CompleteStructuredParams>, string][] = [
      [{ instructions: "   " }, "non-empty instructions"],
      [{ input: [] }, "at least one input"],
      [{ input: [{ type: "audio", data: "x" } as unknown as InputBlock] }, "Unknown input block"],
      [{ input: [{ type: "image" } as unknown as InputBlock] }, "Unknown input block"],
      [{ input: "text" as unknown as InputBlock[] }, "at least one input"],
      [{ instructions: undefined as unknown as string }, "non-empty instructions"],
      [{ systemPrompt: 42 as unknown as string }, '"systemPrompt" must be a string'],
      [{ schemaName: { n: 1 } as unknown as string }, '"schemaName" must be a string'],
      [{ jsonSchema: { type: "no-such-type" } }, "jsonSchema is not a valid JSON Schema"],
    ];
    for (const [params, message] of cases) {
      const error = await structured(params).catch((e: Error) => e);
      expect((error as Error).name).toBe("PluginLlmInputError");
      expect((error as Error).message).toContain(message);
      expect(auditLines(rig).at(-1)).toContain("outcome=refused");
    }
    expect(rig.provider.requests).toHaveLength(0);
    const missing = await rig.llm.completeStructured(ID, undefined as never).catch((e: Error) => e);
    expect((missing as Error).name).toBe("PluginLlmInputError");
    expect(auditLines(rig).at(-1)).toContain("outcome=refused");
  });
});

describe("parseJsonReply", () => {
  it("reads whole replies, fences after prose, a bare object after prose, and nothing from prose", () => {
    expect(parseJsonReply(' {"a": 1} ')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonReply("text\n```json\n[1, 2]\n```")).toEqual({ ok: true, value: [1, 2] });
    expect(parseJsonReply('Here you go: {"a": {"b": 2}}')).toEqual({ ok: true, value: { a: { b: 2 } } });
    expect(parseJsonReply("```python\nprint(1)\n```")).toEqual({ ok: false });
    expect(parseJsonReply("no json {here}")).toEqual({ ok: false });
  });
});
