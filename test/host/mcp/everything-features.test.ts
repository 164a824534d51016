/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
/**
 * server-everything's richer features through chat turns (docs/contract.md §13.3, §13.4):
 * progress, images, structured content, sampling on the `mcp` slot billed as mcp:<id>, and
 * elicitation forms.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startSessionRig, type SessionRig } from "../sessions/support/session-rig.js";
import { waitFor } from "../support/temp-home.js";
import { everythingBin } from "./support/mcp-rig.js";

let rig: SessionRig;
beforeAll(async () => {
  rig = await startSessionRig({
    configure: (doc) => {
      doc.mcp_servers = {
        everything: {
          command: process.execPath,
          args: [everythingBin(), "stdio"],
          approval: "never",
          sampling: { max_tokens_cap: 64 },
        },
      };
    },
  });
  rig.host.mcp.start();
  await waitFor(
    async () => {
      const { servers } = await rig.ok("mcp.list");
      return servers[0]?.tools.some((t: any) => t.name === "trigger-elicitation-request");
    },
    30_000,
    "server-everything ready with its conditional tools",
  );
}, 60_000);
afterAll(async () => rig?.dispose());
beforeEach(() => {
  rig.frames.length = 0;
  rig.main.clearRequests();
});

type Args = Record<string, string | number>;
const call = (name: string, args: Args, id = "call_1") => ({
  kind: "tool_calls" as const,
  toolCalls: [{ id, name, arguments: args }],
});
const toolMessages = async (sessionId: string) =>
  (await rig.ok("session.messages", { sessionId })).messages.filter((m: any) => m.role === "tool");
async function turn(name: string, args: Args, ...after: string[]) {
  rig.main.enqueue(call(name, args), ...(after.length ? after : ["Done."]));
  const { sessionId } = await rig.ok("session.create", { title: "Features" });
  await rig.ok("session.send", { sessionId, text: "go" });
  return sessionId;
}

describe("server-everything features in chat", () => {
  it("progress notifications reach the tool's card as mcp.tool.progress", async () => {
    const sessionId = await turn("mcp__everything__trigger_long_running_operation", {
      duration: 1,
      steps: 3,
    });
    await rig.idle(sessionId);
    const progress = rig.events("mcp.tool.progress", sessionId);
    // The last step's notification may race the result (the SDK drops progress after the answer).
    expect(progress.map((p) => p.progress).slice(0, 2)).toEqual([1, 2]);
    expect(progress[0]).toMatchObject({ requestId: "call_1", total: 3 });
    expect((await toolMessages(sessionId))[0].content).toContain("completed");
  });

  it("an image is kept for the card (and the model: tool-images.test.ts)", async () => {
    const sessionId = await turn("mcp__everything__get_tiny_image", {});
    await rig.idle(sessionId);
    const [tool] = await toolMessages(sessionId);
    expect(tool.content).toMatch(/\[image image\/png, \d+ (bytes|KB)\]/);
    expect(tool.meta.toolImages[0]).toMatchObject({ mimeType: "image/png" });
    expect(tool.meta.toolImages[0].data.length).toBeGreaterThan(100);
  });

  it("structured content checked against the outputSchema reaches the model", async () => {
    const sessionId = await turn("mcp__everything__get_structured_content", { location: "New York" });
    await rig.idle(sessionId);
    const [tool] = await toolMessages(sessionId);
    expect(tool.meta.toolStatus).toBe("ok");
    expect(tool.content).toContain("temperature");
  });

  it("sampling: asked, approved, run on the mcp slot with max_tokens_cap, billed as mcp:everything", async () => {
    rig.main.enqueue(call("mcp__everything__trigger_sampling_request", { prompt: "Say hi", maxTokens: 500 }));
    rig.main.enqueue("Hi from the sampling model.", "The server got its answer.");
    const { sessionId } = await rig.ok("session.create", { title: "Sampling" });
    await rig.ok("session.send", { sessionId, text: "sample" });
    const asked = await rig.waitForEvent("mcp.sampling_requested");
    expect(asked).toMatchObject({
      server: "everything",
      sessionId,
      maxTokens: 64,
      model: "main · fake/chat-small",
    });
    expect(asked.messages[0].text).toContain("Say hi");
    await rig.ok("mcp.sampling.respond", { requestId: asked.requestId, decision: "approve" });
    await rig.idle(sessionId);
    const samplingRequest = rig.main.requests.map((r) => r.body as any).find((b) => !b.stream);
    expect(samplingRequest.max_tokens).toBe(64);
    expect((await toolMessages(sessionId))[0].content).toContain("Hi from the sampling model.");
    const { rows } = await rig.ok("session.usage", { sessionId });
    expect(rows.map((r: any) => r.category)).toContain("mcp:everything");
    rig.host.log.flush();
    expect(readFileSync(join(rig.home, "logs", "agent.log"), "utf8")).toMatch(
      /mcp_sampling .*server=everything.*outcome=answered/,
    );
  });

  it("sampling denied: the server hears the refusal and the turn goes on", async () => {
    const sessionId = await turn("mcp__everything__trigger_sampling_request", { prompt: "x", maxTokens: 10 });
    const asked = await rig.waitForEvent("mcp.sampling_requested");
    await rig.ok("mcp.sampling.respond", { requestId: asked.requestId, decision: "deny" });
    await rig.idle(sessionId);
    expect((await toolMessages(sessionId))[0].content).toMatch(/declined the sampling request/);
  });

  it("elicitation: content failing the schema is refused and the form stays open; accept sends the answer", async () => {
    const sessionId = await turn("mcp__everything__trigger_elicitation_request", {});
    const asked = await rig.waitForEvent("mcp.elicitation_requested");
    expect(asked).toMatchObject({ server: "everything", mode: "form", sessionId });
    expect(asked.requestedSchema.required).toEqual(["name"]);
    // Accept without content sends the defaults, which lack the required name.
    const bare = await rig.call("mcp.elicitation.respond", { requestId: asked.requestId, action: "accept" });
    expect(bare.error?.data.reason).toBe("invalid_params");
    expect(bare.error?.message).toMatch(/name/);
    const wrong = await rig.call("mcp.elicitation.respond", {
      requestId: asked.requestId,
      action: "accept",
      content: { name: "Ada", integer: 500 },
    });
    expect(wrong.error?.data.reason).toBe("invalid_params");
    expect((await rig.ok("mcp.pending", {})).elicitations).toHaveLength(1);
    await rig.ok("mcp.elicitation.respond", {
      requestId: asked.requestId,
      action: "accept",
      content: { name: "Ada Lovelace" },
    });
    await rig.idle(sessionId);
    expect((await toolMessages(sessionId))[0].content).toContain("- Name: Ada Lovelace");
  });

  it("elicitation declined", async () => {
    const sessionId = await turn("mcp__everything__trigger_elicitation_request", {});
    const asked = await rig.waitForEvent("mcp.elicitation_requested");
    await rig.ok("mcp.elicitation.respond", { requestId: asked.requestId, action: "decline" });
    await rig.idle(sessionId);
    expect((await toolMessages(sessionId))[0].content).toContain("declined");
  });
});
