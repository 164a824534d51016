/* eslint-disable @typescript-eslint/no-explicit-any -- event payloads are read as plain JSON here. */
/** The person's pending MCP requests and sampling limits (docs/contract.md §13.3, §13.4), without a server. */
import { describe, expect, it } from "vitest";
import { EventHub } from "../../../electron/host/events.js";
import { ElicitationHandler } from "../../../electron/host/mcp/requests/elicitation.js";
import { PendingRequests } from "../../../electron/host/mcp/requests/pending-requests.js";
import { SamplingHandler } from "../../../electron/host/mcp/requests/sampling.js";
import { toServerConfig } from "../../../electron/host/mcp/server-config.js";
import { waitFor } from "../support/temp-home.js";
import { defaultSettings } from "../../../electron/host/config/config-schema.js";
import { AuxiliaryTaskRegistry } from "../../../electron/host/models/auxiliary-tasks.js";

function setUp() {
  const events = new EventHub();
  const frames: any[] = [];
  events.subscribe((frame) => frames.push(frame.params));
  const pending = new PendingRequests(events);
  return { events, frames, pending };
}

describe("elicitation", () => {
  it("a form nobody answers is cancelled at its timeout", async () => {
    const { frames, pending } = setUp();
    const handler = new ElicitationHandler({ pending, sessionOf: () => null });
    const config = toServerConfig("s", { command: "x", elicitation: { timeout: 0.05 } });
    const result = await handler.handle(
      config,
      {
        mode: "form",
        message: "Name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } } },
      },
      new AbortController().signal,
    );
    expect(result).toEqual({ action: "cancel" });
    expect(frames.map((f) => f.type)).toEqual(["mcp.elicitation_requested", "mcp.request.closed"]);
    expect(frames[1].payload).toMatchObject({ kind: "elicitation", outcome: "timeout" });
  });

  it("URL mode carries the URL; accept without content sends the schema's defaults", async () => {
    const { frames, pending } = setUp();
    const handler = new ElicitationHandler({ pending, sessionOf: () => "sess" });
    const config = toServerConfig("s", { command: "x" });
    const url = handler.handle(
      config,
      { mode: "url", message: "Sign in", url: "https://auth.example/login", elicitationId: "e1" },
      new AbortController().signal,
    );
    await waitFor(() => frames.length > 0);
    expect(frames[0].payload).toMatchObject({
      mode: "url",
      url: "https://auth.example/login",
      sessionId: "sess",
    });
    pending.answerElicitation(frames[0].payload.requestId, { action: "accept" });
    expect(await url).toEqual({ action: "accept" });

    const form = handler.handle(
      config,
      {
        mode: "form",
        message: "Size?",
        requestedSchema: { type: "object", properties: { size: { type: "integer", default: 3 } } },
      },
      new AbortController().signal,
    );
    await waitFor(() => frames.length > 2);
    pending.answerElicitation(frames[2].payload.requestId, { action: "accept" });
    expect(await form).toEqual({ action: "accept", content: { size: 3 } });
  });
});

describe("sampling limits", () => {
  it("refuses requests past max_rpm without asking the person", async () => {
    const { frames, pending } = setUp();
    let now = 0;
    const handler = new SamplingHandler({
      settings: {
        get: () => ({
          ...defaultSettings(),
          providers: { p: { name: "P", base_url: "http://127.0.0.1:9/v1" } },
          model: { provider: "p", model: "m" },
        }),
      },
      slots: new AuxiliaryTaskRegistry(() => undefined),
      engine: { complete: async () => ({}) as never },
      pending,
      log: { write: () => undefined, writeSoon: () => undefined, flush: () => undefined, file: "" },
      bill: () => undefined,
      sessionOf: () => null,
      now: () => now,
    });
    const config = toServerConfig("s", { command: "x", sampling: { max_rpm: 1 } });
    const params = {
      messages: [{ role: "user" as const, content: { type: "text" as const, text: "hi" } }],
      maxTokens: 5,
    };
    const signal = new AbortController().signal;
    // The first is asked (and denied here); the second within the minute is refused outright.
    const first = handler.handle(config, params, signal).catch((e: Error) => e.message);
    await waitFor(() => frames.length > 0);
    pending.answerSampling(frames[0].payload.requestId, "deny");
    expect(await first).toMatch(/declined the sampling request/);
    await expect(handler.handle(config, params, signal)).rejects.toThrow(/at most 1 requests a minute/);
    expect(frames.filter((f) => f.type === "mcp.sampling_requested")).toHaveLength(1);
    now += 61_000;
    void handler.handle(config, params, signal).catch(() => undefined);
    await waitFor(() => frames.filter((f) => f.type === "mcp.sampling_requested").length === 2);
    pending.dropServer("s");
  });
});
