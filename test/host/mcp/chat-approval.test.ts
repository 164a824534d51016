/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
/**
 * MCP tools in chat turns (docs/contract.md §13.3) against the real server-everything, with the
 * fake OpenAI provider scripting the model's tool calls.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
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
        everything: { command: process.execPath, args: [everythingBin(), "stdio"], approval: "ask" },
      };
    },
  });
  rig.host.mcp.start();
  await waitFor(
    async () => {
      const { servers } = await rig.ok("mcp.list");
      const tools = servers[0]?.tools.map((t: any) => t.name) ?? [];
      return servers[0]?.status === "ready" && tools.includes("trigger-sampling-request");
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

const call = (name: string, args: Record<string, string | number>, id = "call_1") => ({
  kind: "tool_calls" as const,
  toolCalls: [{ id, name, arguments: args }],
});
const toolMessages = async (sessionId: string) =>
  (await rig.ok("session.messages", { sessionId })).messages.filter((m: any) => m.role === "tool");
const approvalFor = (sessionId: string) =>
  rig.waitForEvent("mcp.approval_required", (p: any) => p.sessionId === sessionId);

async function startTurn(text = "Use the tool") {
  const { sessionId } = await rig.ok("session.create", { title: "MCP" });
  const { turnId } = await rig.ok("session.send", { sessionId, text });
  return { sessionId, turnId };
}

describe("an MCP tool call in chat", () => {
  it("offers the server's tools to the model and asks before calling; Allow once runs it", async () => {
    rig.main.enqueue(call("mcp__everything__echo", { message: "hello" }), "It said hello.");
    const { sessionId, turnId } = await startTurn();
    const approval = await approvalFor(sessionId);
    expect(approval).toMatchObject({
      requestId: "call_1",
      sessionId,
      server: "everything",
      tool: "echo",
      qualifiedName: "mcp__everything__echo",
      arguments: { message: "hello" },
      annotations: { readOnlyHint: true },
    });
    expect(approval.description).toContain("Echo");
    expect(rig.events("mcp.tool.call", sessionId).map((e) => e.state)).toEqual(["waiting_approval"]);
    expect((await rig.ok("mcp.pending", { sessionId })).approvals).toHaveLength(1);
    await rig.ok("mcp.approve", { requestId: "call_1", decision: "once" });
    await rig.idle(sessionId);
    const first = rig.main.requests[0]!.body as any;
    expect(first.tools.map((t: any) => t.function.name)).toContain("mcp__everything__get_sum");
    const [tool] = await toolMessages(sessionId);
    expect(tool).toMatchObject({
      content: "Echo: hello",
      meta: {
        toolName: "mcp__everything__echo",
        toolStatus: "ok",
        mcp: { server: "everything", state: "done" },
      },
    });
    expect(rig.events("mcp.tool.call", sessionId).map((e) => e.state)).toEqual([
      "waiting_approval",
      "running",
      "done",
    ]);
    expect(rig.events("mcp.request.closed")).toContainEqual({
      requestId: "call_1",
      kind: "approval",
      outcome: "approved",
    });
    expect(rig.events("session.turn.finished", sessionId)).toEqual([{ turnId, status: "ok" }]);
    // Answered once: a second answer finds nothing.
    const again = await rig.call("mcp.approve", { requestId: "call_1", decision: "once" });
    expect(again.error?.data.reason).toBe("not_found");
  });

  it("Deny gives the model 'The user denied this tool call.'", async () => {
    rig.main.enqueue(call("mcp__everything__echo", { message: "x" }), "Okay, I won't.");
    const { sessionId } = await startTurn();
    const approval = await approvalFor(sessionId);
    await rig.ok("mcp.approve", { requestId: approval.requestId, decision: "deny" });
    await rig.idle(sessionId);
    const [tool] = await toolMessages(sessionId);
    expect(tool.content).toBe("The user denied this tool call.");
    const second = rig.main.requests[1]!.body as any;
    expect(second.messages.at(-1)).toMatchObject({
      role: "tool",
      content: "The user denied this tool call.",
    });
  });

  it("Always allow writes always_allow and the next call is not asked", async () => {
    rig.main.enqueue(call("mcp__everything__get_sum", { a: 2, b: 3 }), "5.");
    const { sessionId } = await startTurn();
    const approval = await approvalFor(sessionId);
    await rig.ok("mcp.approve", { requestId: approval.requestId, decision: "always" });
    await rig.idle(sessionId);
    expect((await toolMessages(sessionId))[0].content).toContain("5");
    const config = parse(readFileSync(join(rig.home, "config.yaml"), "utf8"));
    expect(config.mcp_servers.everything.always_allow).toEqual(["get-sum"]);
    const listed = (await rig.ok("mcp.list")).servers[0].tools.find((t: any) => t.name === "get-sum");
    expect(listed.approval).toBe("allow");

    rig.frames.length = 0;
    rig.main.enqueue(call("mcp__everything__get_sum", { a: 1, b: 1 }, "call_2"), "2.");
    await rig.ok("session.send", { sessionId, text: "again" });
    await rig.idle(sessionId);
    expect(rig.events("mcp.approval_required")).toEqual([]);
    expect((await toolMessages(sessionId))[1].content).toContain("2");
  });

  it("Stop while waiting for approval denies it and ends the turn as stopped", async () => {
    rig.main.enqueue(call("mcp__everything__echo", { message: "x" }));
    const { sessionId, turnId } = await startTurn();
    const approval = await approvalFor(sessionId);
    await rig.ok("session.stop", { sessionId });
    await rig.idle(sessionId);
    expect(rig.events("session.turn.finished", sessionId)).toEqual([{ turnId, status: "stopped" }]);
    expect(rig.events("mcp.request.closed")).toContainEqual({
      requestId: approval.requestId,
      kind: "approval",
      outcome: "cancelled",
    });
    expect((await rig.ok("mcp.pending", {})).approvals).toEqual([]);
  });

  it("a new message while waiting denies the approval; the queued turn runs after", async () => {
    rig.main.enqueue(call("mcp__everything__echo", { message: "x" }), "Denied, fine.", "Second answer.");
    const { sessionId } = await startTurn();
    const approval = await approvalFor(sessionId);
    const { disposition } = await rig.ok("session.send", { sessionId, text: "never mind", mode: "queue" });
    expect(disposition).toBe("queued");
    await waitFor(() => rig.events("mcp.request.closed").some((c) => c.requestId === approval.requestId));
    await rig.idle(sessionId);
    expect((await toolMessages(sessionId))[0].content).toBe("The user denied this tool call.");
    const finished = rig.events("session.turn.finished", sessionId);
    expect(finished.map((f) => f.status)).toEqual(["ok", "ok"]);
  });

  it("a queued turn's tool call asks too; a steer while waiting denies the waiting call", async () => {
    rig.main.enqueue(
      call("mcp__everything__echo", { message: "first" }, "q1"),
      "First done.",
      call("mcp__everything__echo", { message: "queued" }, "q2"),
      "Queued done.",
    );
    const { sessionId } = await startTurn();
    const first = await approvalFor(sessionId);
    await rig.ok("session.send", { sessionId, text: "then echo queued", mode: "queue" });
    await waitFor(() => rig.events("mcp.request.closed").some((c) => c.requestId === first.requestId));
    const queued = await rig.waitForEvent(
      "mcp.approval_required",
      (p: any) => p.sessionId === sessionId && p.requestId === "q2",
    );
    await rig.ok("mcp.approve", { requestId: queued.requestId, decision: "once" });
    await rig.idle(sessionId);
    expect((await toolMessages(sessionId)).map((m: any) => m.content)).toEqual([
      "The user denied this tool call.",
      "Echo: queued",
    ]);

    rig.frames.length = 0;
    rig.main.enqueue(call("mcp__everything__echo", { message: "steered" }, "s1"), "Steered answer.");
    await rig.ok("session.send", { sessionId, text: "echo again" });
    const steered = await approvalFor(sessionId);
    const { disposition } = await rig.ok("session.send", { sessionId, text: "skip that", mode: "steer" });
    expect(disposition).toBe("steered");
    await rig.idle(sessionId);
    expect(rig.events("mcp.request.closed")).toContainEqual({
      requestId: steered.requestId,
      kind: "approval",
      outcome: "denied",
    });
    expect((await toolMessages(sessionId)).at(-1).content).toBe("The user denied this tool call.");
  });

  it("asks for an injected turn's tool call too", async () => {
    rig.main.enqueue(call("mcp__everything__echo", { message: "from plugin" }), "Done.");
    const { sessionId } = await rig.ok("session.create", { title: "Injected" });
    expect(rig.host.sessions.inject(sessionId, "a plugin asks", "kit")).toBe(true);
    const approval = await approvalFor(sessionId);
    await rig.ok("mcp.approve", { requestId: approval.requestId, decision: "once" });
    await rig.idle(sessionId);
    expect((await toolMessages(sessionId))[0].content).toBe("Echo: from plugin");
  });

  it("arguments that fail the inputSchema go back to the model; the server is not called", async () => {
    rig.main.enqueue(call("mcp__everything__get_sum", { a: "two", b: 3 }), "Let me fix that.");
    const { sessionId } = await startTurn();
    await rig.idle(sessionId);
    expect(rig.events("mcp.approval_required")).toEqual([]);
    const [tool] = await toolMessages(sessionId);
    expect(tool.meta.toolStatus).toBe("error");
    expect(tool.content).toMatch(
      /^Error: the arguments for mcp__everything__get_sum do not match its schema: a must be number/,
    );
  });
});
