import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../fixtures/manual-clock.js";
import { ChatEngine } from "../../../electron/host/llm/chat-engine.js";
import { runWithFallback } from "../../../electron/host/llm/fallback.js";
import { ProviderRequestError } from "../../../electron/host/llm/provider-request-error.js";
import type { Route } from "../../../electron/host/llm/route.js";
import { createKeytarVault } from "../../../electron/host/secrets/vault.js";
import { startFakeProvider, type FakeProvider } from "../../fixtures/fake-provider.js";
import { requireSecretService } from "../support/test-host.js";

let primary: FakeProvider;
let backup: FakeProvider;
const env: Record<string, string | undefined> = {};
const vault = createKeytarVault({ service: `hermes-desktop-test-${randomUUID()}`, env });
const engine = new ChatEngine(vault);

const route = (p: FakeProvider, id = "primary"): Route => ({
  providerId: id,
  providerName: id === "primary" ? "Primary" : "Backup",
  baseURL: p.baseURL,
  model: "fake/chat-small",
  keyEnv: "FAKE_KEY",
});

beforeAll(async () => {
  requireSecretService();
  primary = await startFakeProvider({ apiKey: "sk-test-engine-0000000000" });
  backup = await startFakeProvider();
});
afterEach(() => {
  primary.reset();
  backup.reset();
  env.FAKE_KEY = "sk-test-engine-0000000000";
});
afterAll(async () => {
  await primary.close();
  await backup.close();
});

describe("ChatEngine", () => {
  it("streams deltas, asks for usage and maps it", async () => {
    env.FAKE_KEY = "sk-test-engine-0000000000";
    primary.enqueue({ kind: "text", content: "one two three", usage: { cachedTokens: 2, cost: 0.001 } });
    const deltas: string[] = [];
    const out = await engine.stream(
      route(primary),
      { messages: [{ role: "user", content: "hi" }] },
      { onDelta: (d) => deltas.push(d) },
    );
    expect(deltas.join("")).toBe("one two three");
    expect(out).toMatchObject({ text: "one two three", stopped: false, finishReason: "stop" });
    expect(out.usage.cacheReadTokens).toBe(2);
    expect(out.usage.costUsd).toBe(0.001);
    const body = primary.lastRequest()!.body as Record<string, unknown>;
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(primary.lastRequest()!.headers.authorization).toBe("Bearer sk-test-engine-0000000000");
    expect(env.FAKE_KEY).toBeUndefined();
  });

  it("keeps the partial reply when stopped mid-stream", async () => {
    primary.fault({ kind: "stall", afterChunks: 3 });
    const controller = new AbortController();
    const out = await engine.stream(
      route(primary),
      { messages: [{ role: "user", content: "alpha beta gamma delta" }] },
      {
        signal: controller.signal,
        onDelta: () => controller.abort(),
      },
    );
    expect(out.stopped).toBe(true);
    expect(out.text.length).toBeGreaterThan(0);
  });

  it("assembles streamed tool calls", async () => {
    primary.enqueue({ kind: "tool_calls", toolCalls: [{ name: "lookup", arguments: { q: "x" } }] });
    const out = await engine.stream(route(primary), { messages: [{ role: "user", content: "hi" }] });
    expect(out.toolCalls).toEqual([
      { id: expect.any(String), type: "function", function: { name: "lookup", arguments: '{"q":"x"}' } },
    ]);
  });

  it("turns a dropped connection, malformed SSE and context overflow into plain errors", async () => {
    primary.fault({ kind: "drop", afterChunks: 2 });
    await expect(
      engine.stream(route(primary), { messages: [{ role: "user", content: "a b c d" }] }),
    ).rejects.toThrow(ProviderRequestError);
    primary.fault({ kind: "malformed_sse", afterChunks: 1, garbage: "invalid_json" });
    await expect(
      engine.stream(route(primary), { messages: [{ role: "user", content: "a b" }] }),
    ).rejects.toMatchObject({
      name: "ProviderRequestError",
    });
    primary.fault({
      kind: "http_error",
      status: 400,
      code: "context_length_exceeded",
      message: "maximum context length",
    });
    await expect(
      engine.stream(route(primary), { messages: [{ role: "user", content: "a" }] }),
    ).rejects.toMatchObject({
      kind: "context_length",
      message: expect.stringContaining("Start a new chat"),
    });
  });

  it("falls back in order on 429 and 5xx, not on 401", async () => {
    primary.fault({ kind: "http_error", status: 429 });
    backup.enqueue("from backup");
    const {
      result,
      route: used,
      skipped,
    } = await runWithFallback([route(primary), route(backup, "backup")], (r) =>
      engine.complete(r, { messages: [{ role: "user", content: "x" }] }),
    );
    expect(result.text).toBe("from backup");
    expect(used.providerId).toBe("backup");
    expect(skipped.map((s) => s.error.status)).toEqual([429]);

    primary.fault({ kind: "http_error", status: 401 });
    await expect(
      runWithFallback([route(primary), route(backup, "backup")], (r) =>
        engine.complete(r, { messages: [{ role: "user", content: "x" }] }),
      ),
    ).rejects.toMatchObject({ status: 401 });
    expect(backup.requests).toHaveLength(1);
  });

  it("gives up on a stream that goes quiet for the idle window, keeping what came (injected clock)", async () => {
    const clock = new ManualClock();
    const quietEngine = new ChatEngine(vault, clock);
    primary.fault({ kind: "stall", afterChunks: 3 });
    // The two content frames before the stall ("Echo:", " one "): one delta or two, as reads fall.
    let text = "";
    let sawBoth!: () => void;
    const bothFrames = new Promise<void>((resolve) => (sawBoth = resolve));
    const pending = quietEngine.stream(
      route(primary),
      { messages: [{ role: "user", content: "one two three four" }] },
      {
        timeoutMs: 1000,
        onDelta: (piece) => {
          text += piece;
          if (text === "Echo: one ") sawBoth();
        },
      },
    );
    await bothFrames;
    clock.advance(600);
    clock.advance(300);
    expect(text).toBe("Echo: one ");
    clock.advance(200);
    await expect(pending).rejects.toMatchObject({
      kind: "timeout",
      message: expect.stringContaining("stopped sending"),
    });
  });
});
