/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are read as plain JSON here. */
/**
 * Images in MCP tool results reach the model (docs/contract.md §13.3 step 4): server-everything's
 * get-tiny-image through a chat turn, the fake OpenAI provider (a real HTTP server) scripting the
 * call and recording the requests. A vision main model gets the image as an image part, in a user
 * message after the tool results (tool messages carry text only); a text-only one gets the
 * `vision` slot's description in the tool message, and never the image. The card keeps it either way.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startSessionRig, type SessionRig } from "../sessions/support/session-rig.js";
import { waitFor } from "../support/temp-home.js";
import { everythingBin } from "./support/mcp-rig.js";

let rig: SessionRig;
afterEach(async () => rig?.dispose());

async function startRig(vision: boolean): Promise<SessionRig> {
  const started = await startSessionRig({
    configure: (doc) => {
      if (vision) doc.providers!.main!.models = { "fake/chat-small": { vision: true } };
      doc.auxiliary = { vision: { provider: "backup", model: "fake/vision" } };
      doc.mcp_servers = {
        everything: { command: process.execPath, args: [everythingBin(), "stdio"], approval: "never" },
      };
    },
  });
  started.host.mcp.start();
  await waitFor(
    async () => (await started.ok("mcp.list")).servers[0]?.status === "ready",
    30_000,
    "server-everything ready",
  );
  return started;
}

async function imageTurn(): Promise<{ sessionId: string; tool: any }> {
  rig.main.enqueue(
    {
      kind: "tool_calls",
      toolCalls: [
        { id: "call_img", name: "mcp__everything__get_tiny_image", arguments: {} },
        { id: "call_echo", name: "mcp__everything__echo", arguments: { message: "after" } },
      ],
    },
    "I looked at it.",
  );
  const { sessionId } = await rig.ok("session.create", {});
  await rig.ok("session.send", { sessionId, text: "Show me the tiny image" });
  await rig.idle(sessionId);
  const { messages } = await rig.ok("session.messages", { sessionId });
  return { sessionId, tool: messages.find((m: any) => m.meta.toolCallId === "call_img") };
}

/** The main model's request that carries the tool results. */
const followUp = () =>
  rig.main.requests.map((r) => r.body as any).find((b) => b.messages.some((m: any) => m.role === "tool"))!;

describe("an MCP tool result's image", () => {
  it("a vision model gets it as an image part after the batch of tool results", async () => {
    rig = await startRig(true);
    const { tool } = await imageTurn();
    const image = tool.meta.toolImages[0];
    expect(image.mimeType).toBe("image/png");

    const messages = followUp().messages;
    const roles = messages.map((m: any) => m.role);
    // assistant (tool_calls), tool, tool, then the images — nothing between calls and results.
    const assistantAt = roles.lastIndexOf("assistant");
    expect(roles.slice(assistantAt)).toEqual(["assistant", "tool", "tool", "user"]);
    expect(messages[assistantAt + 1].content).toMatch(/\[image image\/png, \d+ (bytes|KB)\]/);
    expect(messages.at(-1).content).toEqual([
      {
        type: "text",
        text: "The image returned by the tool mcp__everything__get_tiny_image (call call_img):",
      },
      { type: "image_url", image_url: { url: `data:image/png;base64,${image.data}` } },
    ]);
    expect(rig.backup.requests).toHaveLength(0);
  }, 60_000);

  it("a text-only model gets the vision slot's description in the tool message, never the image", async () => {
    rig = await startRig(false);
    rig.backup.enqueue({ kind: "text", content: "The letters MCP in blue on white." });
    const { sessionId, tool } = await imageTurn();
    const image = tool.meta.toolImages[0];

    const visionRequest = rig.backup.requests.find((r) => (r.body as any).model === "fake/vision");
    expect(JSON.stringify(visionRequest?.body)).toContain(`data:image/png;base64,${image.data}`);
    const body = followUp();
    expect(JSON.stringify(body)).not.toContain("image_url");
    const toolMessage = body.messages.find((m: any) => m.tool_call_id === "call_img");
    expect(toolMessage.content).toContain(
      "[Image 1 of this result, described by the vision model: The letters MCP in blue on white.]",
    );
    expect(tool.meta).toMatchObject({
      imageDescriptions: ["The letters MCP in blue on white."],
      describedBy: { provider: "backup", model: "fake/vision" },
    });
    const { rows } = await rig.ok("session.usage", { sessionId });
    expect(rows.map((r: any) => r.category)).toContain("vision");
  }, 60_000);
});
