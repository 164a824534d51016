/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies and plugin answers are read as plain JSON here. */
/**
 * `ctx.forkSession` end to end (docs/contract.md §7.4): a real host, real plugin workers (test fixtures
 * `forker` and `other-tools`), the fake provider's recorded requests. Every outcome, the token
 * rules of the tool allowlist, the byte-for-byte replay of the turn's request, `turnOrigin` on the
 * fork's tool calls, usage and hooks, and nothing written to the transcript.
 */
import { cpSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { capabilitiesHash } from "../../../electron/host/plugins/capabilities/capabilities.js";
import { tempHome } from "../support/temp-home.js";
import { startSessionRig, type SessionRig } from "../sessions/support/session-rig.js";

const fixtures = join(import.meta.dirname, "fixtures");
let rig: SessionRig;
let home: { dir: string; cleanup(): void };
let sessionId: string;
const hookLog: { name: string; payload: any }[] = [];

beforeEach(async () => {
  home = tempHome("hermes-fork-");
  cpSync(join(fixtures, "forker"), join(home.dir, "plugins", "forker"), { recursive: true });
  cpSync(join(fixtures, "other-tools"), join(home.dir, "plugins", "other-tools"), { recursive: true });
  rig = await startSessionRig({
    home: home.dir,
    configure: (doc) => {
      doc.plugins = {
        enabled: ["forker", "other-tools"],
        entries: {
          forker: {
            granted_capabilities: ["llm.session_fork"],
            capabilities_consent: {
              hash: capabilitiesHash(["llm.session_fork"]),
              granted_at: "2026-11-29T10:00:00Z",
            },
          },
        },
      };
      doc.auxiliary = { fork_lane: { provider: "backup", model: "fake/chat-large" } };
    },
  });
  await vi.waitFor(
    () => {
      const statuses = rig.host.plugins.list().map((p) => p.status);
      if (statuses.length !== 2 || statuses.some((s) => s !== "loaded")) throw new Error(statuses.join());
    },
    { timeout: 20_000, interval: 50 },
  );
  hookLog.length = 0;
  for (const name of ["pre_auxiliary_call", "post_auxiliary_call", "pre_api_request"] as const)
    rig.host.pluginRegistries.hooks.register(
      "probe",
      name,
      (payload: any) => void hookLog.push({ name, payload }),
    );
  ({ sessionId } = await rig.ok("session.create", {}));
}, 30_000);

afterEach(async () => {
  await rig.dispose();
  home.cleanup();
});

/** A person turn whose reply is `reply`; its token lands in the plugin. */
async function personTurn(text = "Plan the launch", reply = "I'll send the report by Friday.") {
  rig.main.enqueue(reply);
  await rig.ok("session.send", { sessionId, text });
  await rig.idle(sessionId);
  await rig.host.sessions.settled();
}

async function command(name: string, args: unknown): Promise<any> {
  const entry = rig.host.pluginRegistries.commands.get(name)!;
  const text = await entry.handler(typeof args === "string" ? args : JSON.stringify(args), {
    sessionId,
    gatewaySessionKey: "window-1",
  });
  return typeof text === "string" && text.startsWith("{") ? JSON.parse(text) : text;
}

const fork = (options: unknown, extra: Record<string, unknown> = {}) =>
  command("fork", { id: "f", prompt: "List the commitments.", options, wait: true, ...extra });

const streamed = () => rig.main.requests.filter((r) => (r.body as any)?.stream);

async function notes(): Promise<any[]> {
  const { readFileSync, existsSync } = await import("node:fs");
  const file = join(home.dir, "plugin-data", "forker", "state.json");
  if (!existsSync(file)) return [];
  return JSON.parse(readFileSync(file, "utf8")).notes ?? [];
}

describe("ctx.forkSession", () => {
  it("ok: replays the turn byte for byte, runs only its allowed tools with turnOrigin, writes nothing to the transcript", async () => {
    await personTurn();
    const turnRequest = streamed().at(-1)!;
    const before = rig.host.sessions.messages(sessionId).length;
    const apiHooksBefore = hookLog.filter((h) => h.name === "pre_api_request").length;
    rig.main.enqueue(
      {
        kind: "tool_calls",
        toolCalls: [
          { name: "fork_other", arguments: { text: "not allowed" } },
          { name: "fork_note", arguments: { text: "Send the report by Friday" } },
        ],
      },
      "Recorded one commitment.",
    );
    const handle = await fork({ tools: ["fork_note"], maxIterations: 4 });
    expect(handle).toEqual({
      done: true,
      cancelled: false,
      outcome: "ok",
      result: "Recorded one commitment.",
      actions: ["fork_note"],
    });

    // The first request is the turn's request, then the turn's reply and the prompt.
    const [first, second] = streamed()
      .slice(-2)
      .map((r) => r.body as any);
    const turnBody = turnRequest.body as any;
    const turnMessages = JSON.stringify(turnBody.messages);
    expect(JSON.stringify(first.messages).startsWith(turnMessages.slice(0, -1))).toBe(true);
    expect(first.messages.slice(turnBody.messages.length)).toEqual([
      { role: "assistant", content: "I'll send the report by Friday." },
      { role: "user", content: "List the commitments." },
    ]);
    expect(JSON.stringify(first.tools)).toBe(JSON.stringify(turnBody.tools));
    expect(first.model).toBe(turnBody.model);
    const rawTurn = turnRequest.rawBody;
    const rawFork = streamed().at(-2)!.rawBody;
    const cut = rawTurn.indexOf(turnMessages.slice(0, -1)) + turnMessages.length - 1;
    expect(rawFork.slice(0, cut)).toBe(rawTurn.slice(0, cut));

    // The call outside the list was refused at dispatch, naming the allowed tools.
    const refused = second.messages.find((m: any) => m.role === "tool" && m.content.includes("fork_other"));
    expect(refused.content).toContain("the tools it may call: fork_note");
    expect(await notes()).toEqual([
      { tool: "fork_note", text: "Send the report by Friday", turnOrigin: "plugin_fork:forker" },
    ]);
    const state = JSON.parse(
      (await import("node:fs")).readFileSync(join(home.dir, "plugin-data", "forker", "state.json"), "utf8"),
    );
    expect(state.preToolCall).toEqual([{ toolName: "fork_note", turnOrigin: "plugin_fork:forker" }]);

    expect(rig.host.sessions.messages(sessionId)).toHaveLength(before);
    const usage = (await rig.ok("session.usage", { sessionId })).rows.map((r: any) => r.category);
    expect(usage).toContain("plugin_fork:forker");
    const aux = hookLog.filter((h) => h.name === "pre_auxiliary_call" && h.payload.auxTask === "plugin_fork");
    expect(aux).toHaveLength(2);
    expect(aux[0]!.payload).toMatchObject({ pluginId: "forker", sessionId });
    expect(hookLog.filter((h) => h.name === "pre_api_request")).toHaveLength(apiHooksBefore);
    expect(rig.host.plugins.list().find((p) => p.id === "forker")!.runtime!.tokensToday).toBeGreaterThan(0);

    // One attempt per turn: the token is spent.
    expect(await fork({ tools: ["fork_note"] })).toEqual({ handle: null });
  });

  it("tool names: another plugin's or an unknown tool keep the token; its own tool the session lacks spends it", async () => {
    await personTurn();
    expect(await fork({ tools: ["other_tool"] })).toEqual({ handle: null });
    expect(await fork({ tools: ["read_file"] })).toEqual({ handle: null });
    const count = rig.main.requests.length;
    await command("addtool", "fork_late");
    expect(await fork({ tools: ["fork_late"] })).toEqual({ handle: null });
    // Spent by the last refusal: even a valid fork gets nothing now.
    expect(await fork({ tools: ["fork_note"] })).toEqual({ handle: null });
    expect(rig.main.requests.length).toBe(count);
    const log = (await import("node:fs")).readFileSync(rig.host.log.file, "utf8");
    expect(log).toContain("outcome=refused:tool_not_own:other_tool spent=false");
    expect(log).toContain("outcome=refused:tool_not_in_session:fork_late spent=true");
  });

  it("bad arguments throw PluginLlmInputError without spending the token", async () => {
    await personTurn();
    for (const maxIterations of [0, 17, 2.5]) {
      const answer = await fork({ maxIterations });
      expect(answer.error).toBe("PluginLlmInputError");
      expect(answer.message).toContain("maxIterations must be a whole number from 1 to 16");
    }
    expect((await fork({ timeout: 1801 })).message).toContain("at most 1800");
    expect((await command("fork", { id: "f", prompt: "", wait: true })).message).toContain("non-empty");
    expect((await command("fork", { id: "f", prompt: "x".repeat(8193), wait: true })).message).toContain(
      "the limit is 8192",
    );
    expect((await command("fork", { id: "f", prompt: 42, wait: true })).message).toContain(
      "must be a string",
    );
    expect((await fork({ tools: "fork_note" })).message).toContain("tools must be a list");
    rig.main.enqueue("Nothing to record.");
    expect(await fork({})).toMatchObject({ outcome: "ok", result: "Nothing to record." });
  });

  it("cancelled: the person's next turn stops a running fork", async () => {
    await personTurn();
    rig.main.fault({ kind: "stall", afterChunks: 1 });
    expect(await fork({}, { wait: false })).toMatchObject({ outcome: "running", done: false });
    await vi.waitFor(() => expect(rig.host.sessions.backgroundWork.list(sessionId)).toHaveLength(1));
    await personTurn("Next question", "Sure.");
    expect(await command("forkstate", { id: "f", waitMs: 10_000 })).toMatchObject({
      finished: true,
      done: true,
      cancelled: true,
      outcome: "cancelled",
      result: null,
    });
    expect(rig.host.sessions.backgroundWork.isBusy(sessionId)).toBe(false);
  });

  it("cancelled by the handle's cancel(); timeout on the wall clock", async () => {
    await personTurn();
    rig.main.fault({ kind: "stall", afterChunks: 1 });
    await fork({}, { wait: false });
    await vi.waitFor(() => expect(rig.host.sessions.backgroundWork.isBusy(sessionId)).toBe(true));
    await command("forkcancel", { id: "f" });
    expect(await command("forkstate", { id: "f", waitMs: 10_000 })).toMatchObject({ outcome: "cancelled" });

    await personTurn();
    rig.main.fault({ kind: "stall", afterChunks: 1 });
    await fork({ timeout: 5 }, { wait: false });
    await vi.waitFor(() => expect(rig.host.sessions.backgroundWork.isBusy(sessionId)).toBe(true));
    rig.clock.advance(4_999);
    expect(await command("forkstate", { id: "f", waitMs: 200 })).toMatchObject({
      finished: false,
      outcome: "running",
    });
    rig.clock.advance(1);
    expect(await command("forkstate", { id: "f", waitMs: 10_000 })).toMatchObject({
      outcome: "timeout",
      cancelled: false,
    });
  });

  it("a spent daily budget throws PluginLlmBudgetError and keeps the token", async () => {
    await personTurn();
    rig.main.enqueue("First fork.");
    expect(await fork({})).toMatchObject({ outcome: "ok" });
    rig.host.settings.set("plugins.entries.forker.limits", { daily_tokens: 1 });
    await personTurn();
    const refused = await fork({});
    expect(refused.error).toBe("PluginLlmBudgetError");
    expect(refused.message).toContain("daily budget");
    rig.host.settings.set("plugins.entries.forker.limits", {});
    rig.main.enqueue("Budget raised.");
    expect(await fork({})).toMatchObject({ outcome: "ok", result: "Budget raised." });
  });

  it("disabling the plugin cancels its running fork", async () => {
    await personTurn();
    rig.main.fault({ kind: "stall", afterChunks: 1 });
    await fork({}, { wait: false });
    await vi.waitFor(() => expect(rig.host.sessions.backgroundWork.isBusy(sessionId)).toBe(true));
    await rig.ok("plugins.setEnabled", { id: "forker", enabled: false });
    expect(await rig.host.sessions.backgroundWork.waitIdle(sessionId, 10_000)).toBe("idle");
    const log = (await import("node:fs")).readFileSync(rig.host.log.file, "utf8");
    expect(log).toMatch(/plugin_fork plugin=forker session=\S+ outcome=cancelled/);
  });

  it("budget_exhausted: a request that would pass the input budget is not sent", async () => {
    await personTurn();
    const count = rig.main.requests.length;
    expect(await fork({ inputBudget: 10 })).toMatchObject({ outcome: "budget_exhausted", result: null });
    expect(rig.main.requests.length).toBe(count);

    await personTurn();
    rig.main.enqueue({
      kind: "tool_calls",
      toolCalls: [{ name: "fork_note", arguments: { text: "one" } }],
      usage: { promptTokens: 20_000 },
    });
    const before = rig.main.requests.length;
    expect(await fork({ tools: ["fork_note"], inputBudget: 20_010 })).toMatchObject({
      outcome: "budget_exhausted",
      actions: ["fork_note"],
    });
    expect(rig.main.requests.length).toBe(before + 1);
  });

  it("refused:runtime_changed after a model switch, refused:parent_gone after the session went", async () => {
    await personTurn();
    await rig.ok("session.setModel", { sessionId, provider: "main", model: "fake/chat-large" });
    const count = rig.main.requests.length;
    expect(await fork({})).toMatchObject({ done: true, outcome: "refused:runtime_changed" });
    expect(await fork({})).toEqual({ handle: null }); // spent
    expect(rig.main.requests.length).toBe(count);

    await personTurn();
    await rig.ok("session.delete", { sessionId });
    expect(await fork({})).toMatchObject({ done: true, outcome: "refused:parent_gone" });
  });

  it("task: runs on the plugin's own slot; a slot not its own returns null and spends the token", async () => {
    await personTurn();
    rig.backup.enqueue("From the lane.");
    expect(await fork({ task: "fork_lane" })).toMatchObject({ outcome: "ok", result: "From the lane." });
    expect((rig.backup.requests.at(-1)!.body as any).model).toBe("fake/chat-large");

    await personTurn();
    expect(await fork({ task: "title_generation" })).toEqual({ handle: null });
    expect(await fork({})).toEqual({ handle: null });
  });
});
