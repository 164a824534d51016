/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
/**
 * `ctx.injectMessage` from a real plugin worker (docs/contract.md §9.3, §5.2): accepted → true and a turn
 * marked `plugin:<id>`; a chat that does not exist → false; bad arguments rejected with what to
 * fix; the injected turn gives its tools no `turnOrigin` and its `post_llm_call` no side-question
 * token (it is unattended), where a person's turn gets one.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { waitFor } from "../support/temp-home.js";
import { startSessionRig, type SessionRig } from "../sessions/support/session-rig.js";

let rig: SessionRig;
beforeEach(async () => {
  rig = await startSessionRig({
    configure: (doc) => {
      doc.plugins = { enabled: ["kit"], entries: { kit: { granted_capabilities: ["llm.side_question"] } } };
    },
  });
  const dir = path.join(rig.home, "plugins", "kit");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "plugin.yaml"),
    "name: kit\nversion: 1.0.0\nmain: index.js\ncapabilities: [llm.side_question]\n",
  );
  fs.writeFileSync(
    path.join(dir, "index.js"),
    `export function register(ctx) {
      ctx.registerCommand({ name: "inject", handler: async (raw) => {
        const { sessionId, text } = JSON.parse(raw);
        try { return { ok: await ctx.injectMessage(sessionId, text) }; }
        catch (e) { return { error: e.name + ": " + e.message, reason: e.reason }; }
      }});
      ctx.registerTool({ name: "remember", description: "r", parameters: { type: "object" }, handler: (args, c) => {
        ctx.state.set("toolContext", { keys: Object.keys(c).sort(), turnOrigin: c.turnOrigin ?? null });
        return "remembered";
      }});
      ctx.registerHook("post_llm_call", (p) => {
        ctx.state.set("tokens", [...(ctx.state.get("tokens") ?? []), p.sideQuestionToken === null ? null : "token"]);
      });
    }`,
  );
  await rig.host.plugins.rescan();
  expect(rig.host.plugins.get("kit").status).toBe("loaded");
});
afterEach(async () => rig.dispose());

const inject = async (sessionId: unknown, text: unknown) =>
  (await rig.host.pluginRegistries.commands
    .get("inject")!
    .handler(JSON.stringify({ sessionId, text }), { sessionId: "s", gatewaySessionKey: "g" })) as any;

const pluginState = (): any => {
  try {
    return JSON.parse(fs.readFileSync(path.join(rig.home, "plugin-data", "kit", "state.json"), "utf8"));
  } catch {
    return {};
  }
};

describe("ctx.injectMessage", () => {
  it("starts a turn marked as the plugin's: no turnOrigin for its tools, no side-question token", async () => {
    // Titled, so no title request takes the replies scripted below.
    const { sessionId } = await rig.ok("session.create", { title: "Injected" });
    await rig.ok("session.send", { sessionId, text: "A person's turn" });
    await rig.idle(sessionId);
    await waitFor(() => pluginState().tokens?.length === 1, 5000, "the person turn's post_llm_call");
    expect(pluginState().tokens).toEqual(["token"]);

    rig.main.enqueue(
      { kind: "tool_calls", toolCalls: [{ id: "call_1", name: "remember", arguments: {} }] },
      "Done remembering.",
    );
    expect(await inject(sessionId, "Please remember this")).toEqual({ ok: true });
    await rig.idle(sessionId);
    expect(rig.events("session.turn.started", sessionId).map((e) => e.origin)).toEqual([
      "person",
      "plugin:kit",
    ]);
    await waitFor(() => pluginState().tokens?.length === 2, 5000, "the injected turn's post_llm_call");
    expect(pluginState().tokens).toEqual(["token", null]);
    expect(pluginState().toolContext).toEqual({ keys: ["sessionId"], turnOrigin: null });
    const messages = (await rig.ok("session.messages", { sessionId })).messages;
    const injected = messages.find((m: any) => m.content === "Please remember this");
    expect(injected).toMatchObject({ role: "user", meta: { origin: "plugin:kit" } });
  });

  it("answers false for a chat that does not exist, and logs why", async () => {
    expect(await inject("no-such-chat", "Hello")).toEqual({ ok: false });
    const log = fs.readFileSync(path.join(rig.home, "logs", "agent.log"), "utf8");
    expect(log).toMatch(/WARN inject_refused plugin=kit session=no-such-chat error="no chat has this id"/);
  });

  it("rejects bad arguments with what to fix", async () => {
    const { sessionId } = await rig.ok("session.create", {});
    expect(await inject(sessionId, "   ")).toEqual({
      error:
        "PluginInjectError: ctx.injectMessage(sessionId, text): text is empty; write the message to send.",
      reason: "invalid_params",
    });
    expect((await inject(sessionId, null)).error).toBe(
      "PluginInjectError: ctx.injectMessage(sessionId, text): text must be a string (got null).",
    );
    expect((await inject(42, "Hello")).error).toContain("sessionId must be a chat's id");
    expect((await inject("", "Hello")).error).toContain("sessionId must be a chat's id");
    expect((await inject(sessionId, "x".repeat(1_000_001))).error).toContain(
      "text is 1000001 characters; at most 1000000 fit",
    );
    expect(rig.events("session.turn.started", sessionId)).toEqual([]);
  });
});
