import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FAKE_KEY, OTHER_KEY, auditLines, startRig, type Rig } from "./plugin-rig.js";

const ID = "caller";
let rig: Rig;

beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => rig.dispose());
beforeEach(() => {
  rig.resetLlmCalls(ID);
  rig.settings.update((doc) => {
    delete doc.fallback_providers;
  });
});

const ping = { messages: [{ role: "user" as const, content: "ping" }] };

describe("ctx.llm.complete: attribution and usage", () => {
  it("names the route's provider and the model the response names", async () => {
    rig.provider.enqueue({ kind: "text", content: "pong", model: "fake/chat-small-2026-01" });
    const result = await rig.llm.complete(ID, ping);
    expect(result).toMatchObject({
      text: "pong",
      provider: "fake",
      model: "fake/chat-small-2026-01",
      agentId: "main",
    });
  });

  it("falls back to the override, then the route's model, when the response names none", async () => {
    rig.policy(ID, { allow_model_override: true });
    rig.provider.enqueue({ kind: "text", content: "x", model: "" });
    expect((await rig.llm.complete(ID, { ...ping, model: "fake/chat-large" })).model).toBe("fake/chat-large");
    rig.provider.enqueue({ kind: "text", content: "x", model: "" });
    expect((await rig.llm.complete(ID, ping)).model).toBe("fake/chat-small");
  });

  it("maps usage, with unreported fields 0 and cost null", async () => {
    rig.provider.enqueue({
      kind: "text",
      content: "a",
      usage: {
        promptTokens: 120,
        completionTokens: 7,
        cachedTokens: 100,
        cacheWriteTokens: 20,
        cost: 0.0012,
      },
    });
    expect((await rig.llm.complete(ID, ping)).usage).toEqual({
      inputTokens: 120,
      outputTokens: 7,
      totalTokens: 127,
      cacheReadTokens: 100,
      cacheWriteTokens: 20,
      costUsd: 0.0012,
    });
    rig.provider.enqueue({ kind: "text", content: "b", usage: "none" });
    expect((await rig.llm.complete(ID, ping)).usage).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: null,
    });
  });

  it("passes request-shaping arguments and tools through and returns toolCalls", async () => {
    rig.provider.enqueue({
      kind: "tool_calls",
      toolCalls: [{ id: "call_1", name: "lookup", arguments: { q: "x" } }],
    });
    const tools = [
      { type: "function" as const, function: { name: "lookup", parameters: { type: "object" } } },
    ];
    const result = await rig.llm.complete(ID, {
      ...ping,
      tools,
      toolChoice: "required",
      temperature: 0.2,
      maxTokens: 33,
      purpose: "demo",
    });
    const body = rig.provider.lastRequest()!.body as Record<string, unknown>;
    expect(body).toMatchObject({ tools, tool_choice: "required", temperature: 0.2, max_tokens: 33 });
    expect(result.toolCalls).toEqual([
      { id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":"x"}' } },
    ]);
    expect(result.audit).toEqual({
      pluginId: ID,
      purpose: "demo",
      profile: null,
      task: null,
      schemaName: null,
    });
  });

  it("bills usage to the session the call names, as plugin_llm:<id>", async () => {
    rig.billed.length = 0;
    rig.provider.enqueue({ kind: "text", content: "a", usage: { promptTokens: 5, completionTokens: 2 } });
    await rig.llm.complete(ID, { ...ping, sessionId: "session-1" });
    await rig.llm.complete(ID, ping);
    expect(rig.billed).toEqual([
      {
        sessionId: "session-1",
        category: "plugin_llm:caller",
        usage: expect.objectContaining({ inputTokens: 5, outputTokens: 2 }),
      },
    ]);
  });

  it("refuses malformed messages before any request", async () => {
    for (const messages of [[], [{ content: "no role" }], "hi"]) {
      const error = await rig.llm.complete(ID, { messages } as never).catch((e: Error) => e);
      expect((error as Error).name).toBe("PluginLlmInputError");
    }
    expect(rig.provider.requests).toHaveLength(0);
  });
});

describe("ctx.llm.complete: fallback and timeout", () => {
  it.each([429, 500, 503])(
    "goes through fallback_providers on %i and names the provider that answered",
    async (status) => {
      rig.settings.update((doc) => {
        doc.fallback_providers = [{ provider: "other", model: "other/model-a" }];
      });
      rig.provider.fault({ kind: "http_error", status, message: "try elsewhere" });
      rig.other.enqueue("from the fallback");
      const result = await rig.llm.complete(ID, ping);
      expect(result).toMatchObject({ text: "from the fallback", provider: "other", model: "other/model-a" });
      expect(rig.other.lastRequest()!.headers.authorization).toBe(`Bearer ${OTHER_KEY}`);
    },
  );

  it("a provider the plugin picked is pinned: no fallback, and the result names it", async () => {
    rig.policy(ID, { allow_provider_override: true });
    rig.settings.update((doc) => {
      doc.fallback_providers = [{ provider: "other", model: "other/model-a" }];
    });
    rig.provider.fault({ kind: "http_error", status: 503, message: "down" });
    await expect(rig.llm.complete(ID, { ...ping, provider: "fake" })).rejects.toMatchObject({
      name: "ProviderRequestError",
      status: 503,
    });
    expect(rig.other.requests).toHaveLength(0);
    expect(auditLines(rig).at(-1)).toMatch(/provider=fake .*outcome=error$/);
    rig.provider.enqueue("pinned");
    expect(await rig.llm.complete(ID, { ...ping, provider: "FAKE" })).toMatchObject({
      text: "pinned",
      provider: "fake",
    });
  });

  it("a built-in task runs with the slot's timeout (seconds) when the call gives none", async () => {
    rig.policy(ID, { allow_task_override: true });
    rig.settings.set("auxiliary.title_generation", { provider: "auto", model: "", timeout: 0.2 });
    rig.provider.fault({ kind: "slow", delayMs: 5_000 });
    const error = await rig.llm.complete(ID, { ...ping, task: "title_generation" }).catch((e: Error) => e);
    expect((error as Error & { kind?: string }).kind).toBe("timeout");
    expect(auditLines(rig).at(-1)).toMatch(/task=title_generation .*outcome=error$/);
    rig.settings.delete("auxiliary.title_generation");
  });

  it("does not fall back on a 400", async () => {
    rig.settings.update((doc) => {
      doc.fallback_providers = [{ provider: "other", model: "other/model-a" }];
    });
    rig.provider.fault({ kind: "http_error", status: 400, message: "bad request" });
    await expect(rig.llm.complete(ID, ping)).rejects.toMatchObject({ name: "ProviderRequestError" });
    expect(rig.other.requests).toHaveLength(0);
    expect(auditLines(rig).at(-1)).toContain("outcome=error");
  });

  it("honours timeout (seconds)", async () => {
    rig.provider.fault({ kind: "slow", delayMs: 5_000 });
    const error = await rig.llm.complete(ID, { ...ping, timeout: 0.2 }).catch((e: Error) => e);
    expect((error as Error & { kind?: string }).kind).toBe("timeout");
  });
});

describe("audit", () => {
  it("writes one plugin_llm line per call (ok, refused, structured, error), never the prompt, reply or key", async () => {
    const before = auditLines(rig).length;
    rig.provider.enqueue({
      kind: "text",
      content: "REPLY-MARKER-7f3",
      usage: { promptTokens: 11, completionTokens: 3 },
    });
    await rig.llm.complete(ID, {
      messages: [{ role: "user", content: `PROMPT-MARKER-9c2 my key is ${FAKE_KEY}` }],
      purpose: "audit.check",
    });
    await rig.llm
      .complete(ID, { messages: [{ role: "user", content: "REFUSED-PROMPT-41d" }], model: "nope" })
      .catch(() => undefined);
    rig.provider.enqueue({ kind: "text", content: `STRUCT-REPLY-5e1 ${OTHER_KEY}` });
    await rig.llm.completeStructured(ID, {
      instructions: "STRUCT-INSTRUCTIONS-2b8",
      input: [{ type: "text", text: `STRUCT-INPUT-6a0 ${OTHER_KEY}` }],
      jsonMode: true,
      purpose: "audit.structured",
    });
    rig.provider.fault({ kind: "http_error", status: 500, message: `ERROR-REPLY-0d9 ${FAKE_KEY}` });
    await rig.llm
      .complete(ID, { messages: [{ role: "user", content: "ERROR-PROMPT-3f7" }] })
      .catch(() => undefined);
    const lines = auditLines(rig).slice(before);
    expect(lines).toHaveLength(4);
    const iso = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`;
    expect(lines[0]).toMatch(
      new RegExp(
        `^${iso} INFO plugin_llm plugin=caller provider=fake model=fake/chat-small purpose=audit\\.check task=auto input_tokens=11 output_tokens=3 outcome=ok$`,
      ),
    );
    expect(lines[1]).toMatch(
      new RegExp(
        `^${iso} INFO plugin_llm plugin=caller provider=- model=- purpose=- task=auto input_tokens=0 output_tokens=0 outcome=refused$`,
      ),
    );
    expect(lines[2]).toMatch(
      new RegExp(
        `^${iso} INFO plugin_llm plugin=caller provider=fake model=fake/chat-small purpose=audit\\.structured task=auto input_tokens=\\d+ output_tokens=\\d+ outcome=ok$`,
      ),
    );
    expect(lines[3]).toMatch(
      new RegExp(
        `^${iso} INFO plugin_llm plugin=caller provider=fake model=fake/chat-small purpose=- task=auto input_tokens=0 output_tokens=0 outcome=error$`,
      ),
    );
    const log = rig.logLines().join("\n");
    for (const secret of [
      "PROMPT-MARKER-9c2",
      "REPLY-MARKER-7f3",
      "REFUSED-PROMPT-41d",
      "STRUCT-REPLY-5e1",
      "STRUCT-INSTRUCTIONS-2b8",
      "STRUCT-INPUT-6a0",
      "ERROR-PROMPT-3f7",
      FAKE_KEY,
      OTHER_KEY,
    ])
      expect(log).not.toContain(secret);
  });
});

describe("ctx.llm: image input and the vision slot", () => {
  const withImage = {
    messages: [
      {
        role: "user" as const,
        content: [
          { type: "text" as const, text: "what is this?" },
          { type: "image_url" as const, image_url: { url: "data:image/png;base64,AAAA" } },
        ],
      },
    ],
  };

  it("sends image input to a pinned vision slot, text to the main model", async () => {
    rig.settings.set("auxiliary.vision", { provider: "other", model: "other/model-a", timeout: 20 });
    try {
      rig.other.enqueue("a cat");
      const seen = await rig.llm.complete(ID, withImage);
      expect(seen).toMatchObject({ text: "a cat", provider: "other" });
      expect((rig.other.lastRequest()!.body as { model: string }).model).toBe("other/model-a");
      rig.provider.enqueue("pong");
      expect((await rig.llm.complete(ID, ping)).provider).toBe("fake");
    } finally {
      rig.settings.delete("auxiliary.vision");
    }
  });

  it("keeps image input on a vision-capable main model even when the vision slot is pinned", async () => {
    rig.settings.set("auxiliary.vision", { provider: "other", model: "other/model-a" });
    rig.settings.set("providers.fake.models", { "fake/chat-small": { vision: true } });
    try {
      rig.provider.enqueue("a bird");
      expect(await rig.llm.complete(ID, withImage)).toMatchObject({ text: "a bird", provider: "fake" });
      expect(rig.other.requests).toHaveLength(0);
    } finally {
      rig.settings.delete("auxiliary.vision");
      rig.settings.delete("providers.fake.models");
    }
  });

  it("keeps image input on the main model when no vision slot is pinned", async () => {
    rig.provider.enqueue("a dog");
    expect(await rig.llm.complete(ID, withImage)).toMatchObject({ text: "a dog", provider: "fake" });
    expect(rig.other.requests).toHaveLength(0);
  });
});
