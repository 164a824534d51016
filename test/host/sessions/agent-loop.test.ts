/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { HookName } from "../../../electron/host/plugins/registries/hook-types.js";
import { startSessionRig, type SessionRig } from "./support/session-rig.js";

let rig: SessionRig;
let fired: { name: HookName; payload: any }[];

beforeEach(async () => {
  rig = await startSessionRig();
  fired = [];
  const { hooks, tools } = rig.host.pluginRegistries;
  const names: HookName[] = [
    "pre_llm_call",
    "post_llm_call",
    "pre_api_request",
    "post_api_request",
    "pre_tool_call",
    "post_tool_call",
    "on_session_start",
    "on_session_end",
  ];
  for (const name of names) hooks.register("spy", name, (payload: any) => void fired.push({ name, payload }));
  hooks.register("guard", "pre_tool_call", (p: any) =>
    p.toolName === "wipe_disk" ? { block: "never wipe disks" } : undefined,
  );
  hooks.register("explainer", "post_tool_call", (p: any) =>
    p.toolName === "lookup" ? { explanation: "Looked the answer up." } : undefined,
  );
  const tool = (name: string, handler: (args: any) => unknown) =>
    tools.register({
      pluginId: "kit",
      name,
      toolset: "kit",
      description: `the ${name} tool`,
      parameters: { type: "object" },
      handler,
    });
  tool("lookup", (args) => ({ answer: 42, asked: args.q }));
  tool("broken", () => {
    throw new Error("the database is offline");
  });
  tool("wipe_disk", () => "wiped");
});
afterEach(async () => rig.dispose());

const streamed = (rig: SessionRig) =>
  rig.main.requests.filter((r) => (r.body as any).stream).map((r) => r.body as any);

describe("the agent loop", () => {
  it("sends registered tools, runs the call and feeds the result back", async () => {
    rig.main.enqueue(
      { kind: "tool_calls", toolCalls: [{ id: "call_1", name: "lookup", arguments: { q: "life" } }] },
      "It is 42.",
      "Title",
    );
    const { sessionId } = await rig.ok("session.create", {});
    const { turnId } = await rig.ok("session.send", { sessionId, text: "What is the answer?" });
    await rig.idle(sessionId);
    const [first, second] = streamed(rig);
    expect(first.tools.map((t: any) => t.function.name)).toEqual(["broken", "lookup", "wipe_disk"]);
    expect(second.messages).toEqual([
      { role: "user", content: "What is the answer?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":"life"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: '{"answer":42,"asked":"life"}' },
    ]);
    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(messages[2].meta).toMatchObject({
      toolCallId: "call_1",
      toolName: "lookup",
      toolStatus: "ok",
      explanation: "Looked the answer up.",
    });
    expect(messages[3]).toMatchObject({ content: "It is 42.", turnId });
    expect(rig.events("session.turn.finished", sessionId)).toEqual([{ turnId, status: "ok" }]);
  });

  it("feeds tool errors, unknown tools, bad JSON and blocks back to the model", async () => {
    rig.main.enqueue(
      {
        kind: "tool_calls",
        toolCalls: [
          { id: "c1", name: "broken", arguments: {} },
          { id: "c2", name: "wipe_disk", arguments: { disk: "/" } },
          { id: "c3", name: "missing_tool", arguments: {} },
          { id: "c4", name: "lookup", arguments: "{not json" },
        ],
      },
      "I could not do any of that.",
    );
    const { sessionId } = await rig.ok("session.create", { title: "Tools" });
    await rig.ok("session.send", { sessionId, text: "Try everything" });
    await rig.idle(sessionId);
    const toolMessages = streamed(rig)[1].messages.filter((m: any) => m.role === "tool");
    expect(toolMessages.map((m: any) => [m.tool_call_id, m.content])).toEqual([
      ["c1", "Error: the database is offline"],
      ["c2", "Error: the tool call was blocked by plugin 'guard': never wipe disks"],
      ["c3", 'Error: there is no tool named "missing_tool". Available tools: broken, lookup, wipe_disk.'],
      ["c4", "Error: the arguments for lookup are not valid JSON; send them again as a JSON object."],
    ]);
    const statuses = (await rig.ok("session.messages", { sessionId })).messages
      .filter((m: any) => m.role === "tool")
      .map((m: any) => m.meta.toolStatus);
    expect(statuses).toEqual(["error", "blocked", "error", "error"]);
    // The blocked tool never ran, so post_tool_call fired only for the one that ran and failed.
    expect(fired.filter((f) => f.name === "post_tool_call").map((f) => f.payload.toolName)).toEqual([
      "broken",
    ]);
  });

  it("fires the turn's hooks with sessionId and the calling window's gatewaySessionKey", async () => {
    rig.main.enqueue(
      {
        kind: "tool_calls",
        toolCalls: [{ id: "k1", name: "lookup", arguments: { q: "x" } }],
        usage: { promptTokens: 11, completionTokens: 3 },
      },
      "Done.",
    );
    const { sessionId } = await rig.ok("session.create", { title: "Hooks" }, "window-7");
    await rig.ok("session.send", { sessionId, text: "Use a tool" }, "window-7");
    await rig.idle(sessionId);
    await rig.host.sessions.settled();
    const scope = { sessionId, gatewaySessionKey: "window-7" };
    expect(fired.map((f) => f.name)).toEqual([
      "on_session_start",
      "pre_llm_call",
      "pre_api_request",
      "post_api_request",
      "pre_tool_call",
      "post_tool_call",
      "pre_api_request",
      "post_api_request",
      "post_llm_call",
    ]);
    const byName = (n: HookName) => fired.find((f) => f.name === n)!.payload;
    expect(byName("pre_llm_call")).toEqual({ ...scope, userMessage: "Use a tool" });
    expect(byName("pre_api_request")).toEqual({ ...scope, provider: "main", model: "fake/chat-small" });
    expect(byName("post_api_request")).toMatchObject({
      ...scope,
      provider: "main",
      usage: { inputTokens: 11, outputTokens: 3 },
    });
    expect(byName("pre_tool_call")).toEqual({ ...scope, toolName: "lookup", args: { q: "x" } });
    expect(byName("post_tool_call")).toEqual({
      ...scope,
      toolName: "lookup",
      args: { q: "x" },
      result: { answer: 42, asked: "x" },
    });
    expect(byName("post_llm_call")).toEqual({
      ...scope,
      sideQuestionToken: null,
      reviewSignals: { memoryReviewDue: false },
      reply: "Done.",
    });
    await rig.ok("session.delete", { sessionId }, "window-9");
    await rig.host.sessions.settled();
    expect(fired.at(-1)).toEqual({
      name: "on_session_end",
      payload: { sessionId, gatewaySessionKey: "window-9" },
    });
  });

  it("stops after the iteration bound with a notice that says what to do", async () => {
    for (let i = 0; i < 16; i++)
      rig.main.enqueue({ kind: "tool_calls", toolCalls: [{ name: "lookup", arguments: { q: i } }] });
    const { sessionId } = await rig.ok("session.create", { title: "Loop" });
    const { turnId } = await rig.ok("session.send", { sessionId, text: "Loop forever" });
    await rig.idle(sessionId);
    expect(streamed(rig)).toHaveLength(16);
    const finished = rig.events("session.turn.finished", sessionId)[0];
    expect(finished).toMatchObject({ turnId, status: "error" });
    expect(finished.error).toMatch(/Stopped after 16 rounds of tool calls/);
    const last = (await rig.ok("session.messages", { sessionId })).messages.at(-1);
    expect(last).toMatchObject({ role: "notice", meta: { notice: "iteration_limit" } });
  });

  it("runs plugin slash commands locally and sends unknown ones to the model", async () => {
    rig.host.pluginRegistries.commands.register({
      pluginId: "kit",
      name: "tldr",
      description: "shorten",
      argsHint: "<text>",
      handler: (raw, ctx) => `Short: ${raw.split(" ")[0]} (${ctx.gatewaySessionKey})`,
    });
    rig.main.enqueue("Unknown commands are just text to me.");
    const { sessionId } = await rig.ok("session.create", { title: "Commands" });
    await rig.ok("session.send", { sessionId, text: "/tldr many words here" });
    await rig.host.sessions.settled();
    expect(rig.main.requests).toHaveLength(0);
    await rig.ok("session.send", { sessionId, text: "/nope hello" });
    await rig.idle(sessionId);
    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages.map((m: any) => [m.role, m.content])).toEqual([
      ["user", "/tldr many words here"],
      ["assistant", "Short: many (window-1)"],
      ["user", "/nope hello"],
      ["assistant", "Unknown commands are just text to me."],
    ]);
    // The command exchange never reaches the model.
    expect(streamed(rig)[0].messages).toEqual([{ role: "user", content: "/nope hello" }]);
  });
});

describe("the tool gate", () => {
  it("a pre_tool_call hook that does not answer in time blocks the tool (fails closed)", async () => {
    let ran = false;
    rig.host.pluginRegistries.tools.register({
      pluginId: "kit",
      name: "launch",
      toolset: "kit",
      description: "launches",
      parameters: { type: "object" },
      handler: () => ((ran = true), "launched"),
    });
    rig.host.pluginRegistries.hooks.register(
      "slow-guard",
      "pre_tool_call",
      () => new Promise(() => undefined),
    );
    rig.main.enqueue(
      { kind: "tool_calls", toolCalls: [{ id: "t1", name: "launch", arguments: {} }] },
      "Blocked.",
    );
    const { sessionId } = await rig.ok("session.create", { title: "Gate" });
    await rig.ok("session.send", { sessionId, text: "Launch it" });
    await rig.waitForEvent("session.message", (p) => p.message.meta.toolCalls?.length === 1);
    await vi.waitFor(() => expect(fired.some((f) => f.name === "pre_tool_call")).toBe(true));
    rig.clock.advance(30_000);
    await rig.idle(sessionId);
    expect(ran).toBe(false);
    const tool = (await rig.ok("session.messages", { sessionId })).messages.find(
      (m: any) => m.role === "tool",
    );
    expect(tool.meta.toolStatus).toBe("blocked");
    expect(tool.content).toMatch(/blocked by plugin 'slow-guard': .*did not answer in time/);
    // The payload names every key of docs/contract.md §5.3, turnOrigin included (absent outside a fork).
    const payload = fired.find((f) => f.name === "pre_tool_call")!.payload;
    expect(Object.keys(payload).sort()).toEqual([
      "args",
      "gatewaySessionKey",
      "sessionId",
      "toolName",
      "turnOrigin",
    ]);
    expect(payload.turnOrigin).toBeUndefined();
  });

  it("an injected turn fires its hooks with the key of the window that owns the session", async () => {
    rig.main.enqueue("Injected answer");
    const { sessionId } = await rig.ok("session.create", { title: "Owned" }, "window-3");
    expect(rig.host.sessions.inject(sessionId, "From a plugin", "kit")).toBe(true);
    await rig.idle(sessionId);
    const pre = fired.find((f) => f.name === "pre_llm_call")!.payload;
    expect(pre).toEqual({ sessionId, gatewaySessionKey: "window-3", userMessage: "From a plugin" });
    expect(rig.events("session.turn.started", sessionId)[0].origin).toBe("plugin:kit");
    expect(rig.host.sessions.inject("no-such-session", "x", "kit")).toBe(false);
  });
});
