/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and recorded requests are read as plain JSON here. */
/**
 * A side question never reaches an MCP tool (docs/contract.md §7.3, §13.3 step 5; #27 "a fork or
 * side question never reaches an MCP tool"): the chat's MCP tools are in the replayed request,
 * and a reply that calls one runs nothing — no approval asked, no call made — with a real plugin
 * in its worker asking and a real MCP server that would run the call without asking.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSessionRig, type SessionRig } from "../sessions/support/session-rig.js";
import { tempHome, waitFor } from "../support/temp-home.js";
import { faultServer, nodeServer } from "./support/mcp-rig.js";

const SQ = "llm.side_question";
const ASKER = `
let last = null;
export function register(ctx) {
  ctx.registerHook("post_llm_call", (p) => { last = p.sideQuestionToken; });
  ctx.registerCommand({ name: "asker-ask", handler: async (raw) =>
    JSON.stringify({ answer: await ctx.sideQuestion(last, raw) }) });
}
`;

let rig: SessionRig;
let home: { dir: string; cleanup(): void };
beforeAll(async () => {
  home = tempHome("hermes-mcp-side-question-");
  const plugin = join(home.dir, "plugins", "asker");
  mkdirSync(plugin, { recursive: true });
  writeFileSync(
    join(plugin, "plugin.yaml"),
    `name: asker\nversion: 1.0.0\ndescription: Asks side questions.\nmain: index.js\ncapabilities: [${SQ}]\n`,
  );
  writeFileSync(join(plugin, "index.js"), ASKER);
  rig = await startSessionRig({
    home: home.dir,
    configure: (doc) => {
      doc.plugins = { enabled: ["asker"] };
      doc.mcp_servers = { envy: nodeServer(faultServer("fault-server.mjs"), [], { approval: "never" }) };
    },
  });
  rig.host.mcp.start();
  await waitFor(async () => (await rig.ok("mcp.list")).servers[0]?.status === "ready", 30_000, "envy ready");
  await waitFor(
    async () =>
      (await rig.ok("plugins.list")).plugins.find((p: any) => p.id === "asker")?.status === "loaded",
    30_000,
    "the asker plugin loaded",
  );
  await rig.ok("plugins.consent", { id: "asker", grant: [SQ] });
}, 90_000);
afterAll(async () => {
  await rig?.dispose();
  home?.cleanup();
});

describe("a side question in a chat with MCP tools", () => {
  it("replays the MCP tools, but a reply calling one runs nothing", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Side" });
    rig.main.enqueue("Sure.");
    await rig.ok("session.send", { sessionId, text: "Hello" });
    await rig.idle(sessionId);
    const turnRequest = rig.main.requests.at(-1)!.body as any;
    expect(turnRequest.tools.map((t: any) => t.function.name)).toContain("mcp__envy__pid");

    rig.frames.length = 0;
    rig.main.enqueue({
      kind: "tool_calls",
      toolCalls: [{ id: "sq1", name: "mcp__envy__pid", arguments: {} }],
    });
    const entry = rig.host.pluginRegistries.commands.get("asker-ask")!;
    const raw = await entry.handler("Which process are you?", { sessionId, gatewaySessionKey: "window-1" });
    // The reply was only a tool call, dropped: an empty reply answers null.
    expect(JSON.parse(String(raw))).toEqual({ answer: null });
    const sideRequest = rig.main.requests.at(-1)!.body as any;
    expect(sideRequest.tools).toEqual(turnRequest.tools);
    expect(sideRequest.messages.at(-1)).toMatchObject({ role: "user", content: "Which process are you?" });

    await new Promise((r) => setTimeout(r, 300)); // time for anything a call would emit
    const mcpFrames = rig.frames.filter((f) => f.type.startsWith("mcp."));
    expect(mcpFrames).toEqual([]);
    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages.filter((m: any) => m.role === "tool")).toEqual([]);
  }, 60_000);
});
