/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and hook payloads are read as plain JSON here. */
/**
 * Side questions end to end in a real host (docs/contract.md §7.2, §7.3, §5.3): real plugins in their
 * workers, real chat turns against the fake provider, consent through `plugins.consent` /
 * `plugins.revoke`, and the replay checked byte for byte on the provider's recorded requests.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tempHome, waitFor } from "../support/temp-home.js";
import { startSessionRig, type SessionRig } from "../sessions/support/session-rig.js";

const SQ = "llm.side_question";

/** A plugin that keeps the last token and exposes `/<id>-ask {json}` and `/<id>-cap`. */
const driver = (id: string) => `
let last = null;
export function register(ctx) {
  ctx.registerHook("post_llm_call", (p) => { last = p.sideQuestionToken; });
  ctx.registerCommand({ name: "${id}-ask", handler: async (raw) => {
    const a = JSON.parse(raw || "{}");
    const token = "token" in a ? a.token : last;
    try { return JSON.stringify({ answer: await ctx.sideQuestion(token, a.prompt, a.options) }); }
    catch (e) { return JSON.stringify({ error: e.name, message: e.message }); }
  }});
  ctx.registerCommand({ name: "${id}-cap", handler: () =>
    JSON.stringify({ token: last, has: ctx.hasCapability("${SQ}") }) });
}
`;

function writePlugin(home: string, id: string, capabilities: string[]) {
  const dir = path.join(home, "plugins", id);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "plugin.yaml"),
    `name: ${id}\nversion: 1.0.0\ndescription: test\nmain: index.js\ncapabilities: [${capabilities.join(", ")}]\n`,
  );
  fs.writeFileSync(path.join(dir, "index.js"), driver(id));
}

let rig: SessionRig;
let temp: { dir: string; cleanup(): void };
let hookLog: { name: string; payload: any }[];

async function command(id: string, name: string, args: unknown, sessionId = "none"): Promise<any> {
  const entry = rig.host.pluginRegistries.commands.get(`${id}-${name}`);
  if (!entry) throw new Error(`/${id}-${name} is not registered`);
  const raw = await entry.handler(JSON.stringify(args ?? {}), { sessionId, gatewaySessionKey: "window-1" });
  return JSON.parse(String(raw));
}
const ask = (id: string, args: Record<string, unknown>) => command(id, "ask", args);

/** One person turn answered with `reply`; returns the session and the turn's recorded request. */
async function turn(reply = "Sure, here it is.", sessionId?: string) {
  const id = sessionId ?? (await rig.ok("session.create", {})).sessionId;
  // A new chat's first exchange is titled in the background: it takes the second reply.
  rig.main.enqueue(reply, ...(sessionId ? [] : ["Week plan"]));
  await rig.ok("session.send", { sessionId: id, text: "Plan my week." });
  await rig.idle(id);
  if (!sessionId) await waitFor(() => rig.events("session.title", id).length > 0, 5000, "the title");
  const streamed = rig.main.requests.filter((r) => (r.body as any)?.stream);
  return { sessionId: id, request: streamed.at(-1)! };
}

async function enable(id: string) {
  await rig.ok("plugins.setEnabled", { id, enabled: true });
  await waitFor(
    async () => (await rig.ok("plugins.list")).plugins.find((p: any) => p.id === id)?.status === "loaded",
  );
}

beforeAll(async () => {
  temp = tempHome("hermes-side-question-");
  writePlugin(temp.dir, "asker", [SQ]);
  writePlugin(temp.dir, "bystander", []);
  rig = await startSessionRig({
    home: temp.dir,
    configure: (doc) => {
      doc.fallback_providers = [{ provider: "backup", model: "fake/backup" }];
    },
  });
  await rig.host.plugins.ready();
  hookLog = [];
  for (const name of [
    "pre_auxiliary_call",
    "post_auxiliary_call",
    "pre_api_request",
    "post_api_request",
  ] as const) {
    rig.host.pluginRegistries.hooks.register(
      "spy",
      name,
      (payload: any) => void hookLog.push({ name, payload }),
    );
  }
  rig.host.pluginRegistries.hooks.register("spy", "post_llm_call", (payload: any) => {
    hookLog.push({ name: "post_llm_call", payload });
  });
  await enable("bystander");
});
afterAll(async () => {
  await rig.dispose();
  temp.cleanup();
});
beforeEach(() => {
  rig.main.reset();
  rig.backup.reset();
  hookLog.length = 0;
});

describe("consent", () => {
  it("enabling a plugin that declares capabilities asks for consent; until granted no token", async () => {
    await enable("asker");
    const required = await rig.waitForEvent("plugin.consent_required", (p) => p.id === "asker");
    expect(required).toEqual({ id: "asker", pendingCapabilities: [SQ] });
    const { plugins } = await rig.ok("plugins.list");
    expect(plugins.find((p: any) => p.id === "asker")).toMatchObject({
      enabled: true,
      status: "loaded",
      capabilities: [{ id: SQ, granted: false }],
      pendingCapabilities: [SQ],
    });
    await turn();
    expect(hookLog.find((h) => h.name === "post_llm_call")!.payload.sideQuestionToken).toBeNull();
  });

  it("a consent answer for a capability the plugin does not declare is refused, naming it", async () => {
    const reply = await rig.call("plugins.consent", { id: "asker", grant: ["llm.session_fork"] });
    expect(reply.error?.data.reason).toBe("invalid_params");
    expect(reply.error?.message).toMatch(/does not declare llm\.session_fork/);
    const unknown = await rig.call("plugins.consent", { id: "nobody", grant: [] });
    expect(unknown.error?.data.reason).toBe("plugin_not_found");
  });

  it("declining keeps the plugin on with the capability off, and stops asking", async () => {
    const { plugin } = await rig.ok("plugins.consent", { id: "asker", grant: [] });
    expect(plugin).toMatchObject({ enabled: true, status: "loaded", pendingCapabilities: [] });
    expect(plugin.capabilities).toEqual([{ id: SQ, granted: false }]);
    const entry = rig.host.settings.document().plugins!.entries!.asker!;
    expect(entry.granted_capabilities).toEqual([]);
    expect(entry.capabilities_consent!.granted_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(fs.readFileSync(path.join(rig.home, "logs", "agent.log"), "utf8")).toMatch(
      /plugin_consent plugin=asker granted=- declined=llm\.side_question/,
    );
  });

  it("after an update that declares a new capability, asks for that one only", async () => {
    writePlugin(rig.home, "asker", [SQ, "llm.session_fork", "llm.made_up"]);
    await rig.ok("plugins.rescan");
    const asked = await rig.waitForEvent(
      "plugin.consent_required",
      (p) => p.id === "asker" && p.pendingCapabilities.includes("llm.session_fork"),
    );
    // side_question was declined before: not asked again; the unknown id is dropped with a warning.
    expect(asked).toEqual({ id: "asker", pendingCapabilities: ["llm.session_fork"] });
    const { plugins } = await rig.ok("plugins.list");
    const asker = plugins.find((p: any) => p.id === "asker");
    expect(asker.capabilities.map((c: any) => c.id)).toEqual([SQ, "llm.session_fork"]);
    expect(asker.warnings.join(" ")).toMatch(/unknown capability "llm\.made_up" is dropped/);
    await rig.ok("plugins.consent", { id: "asker", grant: [] });
    writePlugin(rig.home, "asker", [SQ]);
    await rig.ok("plugins.rescan");
    await waitFor(
      async () =>
        (await rig.ok("plugins.list")).plugins.find((p: any) => p.id === "asker")?.status === "loaded",
    );
  });

  it("granting stores the grant, updates ctx.hasCapability in the worker, and turns get a token", async () => {
    const { plugin } = await rig.ok("plugins.consent", { id: "asker", grant: [SQ] });
    expect(plugin.capabilities).toEqual([{ id: SQ, granted: true }]);
    expect(rig.host.settings.document().plugins!.entries!.asker!.granted_capabilities).toEqual([SQ]);
    await waitFor(async () => (await command("asker", "cap", {})).has === true, 5000, "the worker's mirror");
    await turn();
    const token = hookLog.find((h) => h.name === "post_llm_call")!.payload.sideQuestionToken;
    expect(token).toMatch(/^sq1\./);
    // Shared: the plugin without the capability got the same token.
    expect((await command("bystander", "cap", {})).token).toBe(token);
  });
});

describe("ctx.sideQuestion", () => {
  it("replays the turn's request byte for byte plus one user message, and bills it apart", async () => {
    const { sessionId, request } = await turn();
    const before = (await rig.ok("session.messages", { sessionId })).messages.length;
    hookLog.length = 0;
    rig.main.enqueue("Ask me to book the dentist.");
    const prompt = "What will the user most likely ask next? One line.";
    expect(await ask("asker", { prompt })).toEqual({ answer: "Ask me to book the dentist." });
    const side = rig.main.requests.at(-1)!;
    const turnBody = request.body as any;
    const sideBody = side.body as any;
    expect(sideBody.messages).toEqual([...turnBody.messages, { role: "user", content: prompt }]);
    expect({ ...sideBody, messages: turnBody.messages }).toEqual(turnBody);
    // Byte level: the turn's raw body is the side question's with the one message taken out.
    const added = `,${JSON.stringify({ role: "user", content: prompt })}`;
    expect(side.rawBody.replace(added, "")).toBe(request.rawBody);
    expect((await rig.ok("session.messages", { sessionId })).messages).toHaveLength(before);
    const { rows } = await rig.ok("session.usage", { sessionId });
    expect(rows.map((r: any) => r.category)).toContain("plugin_side_question:asker");
    expect(
      hookLog
        .filter((h) => h.name.includes("auxiliary"))
        .map((h) => [h.name, h.payload.auxTask, h.payload.pluginId]),
    ).toEqual([
      ["pre_auxiliary_call", "plugin_side_question", "asker"],
      ["post_auxiliary_call", "plugin_side_question", "asker"],
    ]);
    // The turn-scoped API hooks did not fire for it.
    expect(hookLog.filter((h) => h.name.endsWith("_api_request"))).toEqual([]);
  });

  it("a plugin's injected turn is unattended: its post_llm_call gets no token", async () => {
    const { sessionId } = await turn();
    hookLog.length = 0;
    rig.main.enqueue("Injected answer.");
    expect(rig.host.sessions.inject(sessionId, "Remind me of the plan.", "bystander")).toBe(true);
    await waitFor(() => hookLog.some((h) => h.name === "post_llm_call"), 5000, "the injected turn");
    await rig.idle(sessionId);
    expect(hookLog.find((h) => h.name === "post_llm_call")!.payload.sideQuestionToken).toBeNull();
  });

  it("one attempt per turn: a plugin without the capability gets null without spending it", async () => {
    await turn();
    expect(await ask("bystander", { prompt: "hi" })).toEqual({ answer: null });
    rig.main.fault({ kind: "http_error", status: 500 });
    expect(await ask("asker", { prompt: "hi" })).toEqual({ answer: null });
    // A provider error spent it, and there was no fallback.
    expect(rig.backup.requests).toHaveLength(0);
    expect(await ask("asker", { prompt: "hi" })).toEqual({ answer: null });
    expect(rig.main.requests.filter((r) => (r.body as any)?.messages?.at(-1)?.content === "hi")).toHaveLength(
      1,
    );
  });

  it("refuses bad prompts and timeouts with a clear error, without spending the token", async () => {
    await turn();
    const cases: [unknown, RegExp][] = [
      ["", /non-empty/],
      ["   ", /non-empty/],
      [42, /must be a string, not a number/],
      ["x".repeat(4097), /4097 characters; keep it to at most 4096/],
    ];
    for (const [prompt, message] of cases) {
      const result = await ask("asker", { prompt });
      expect(result.error).toBe("PluginLlmInputError");
      expect(result.message).toMatch(message);
    }
    expect((await ask("asker", { prompt: "ok", options: { timeout: -1 } })).message).toMatch(
      /positive number/,
    );
    rig.main.enqueue("fine");
    expect(await ask("asker", { prompt: "x".repeat(4096) })).toEqual({ answer: "fine" });
  });

  it("drops tool calls: a reply of only tool calls is empty, so null; nothing runs", async () => {
    await turn();
    rig.main.enqueue({ kind: "tool_calls", toolCalls: [{ name: "lookup", arguments: {} }] });
    expect(await ask("asker", { prompt: "hi" })).toEqual({ answer: null });
  });

  it("answers null once the session's model changed since the turn", async () => {
    const { sessionId } = await turn();
    await rig.ok("session.setModel", { sessionId, provider: "main", model: "fake/other" });
    expect(await ask("asker", { prompt: "hi" })).toEqual({ answer: null });
    expect(rig.main.requests.filter((r) => (r.body as any)?.messages?.at(-1)?.content === "hi")).toHaveLength(
      0,
    );
  });

  // The 60 s expiry is tested with the lease's clock in side-question-lease.test.ts (moving this
  // host's clock a minute would also time out the plugins' heartbeats).
  it("expires when the session's next turn starts", async () => {
    const { sessionId } = await turn();
    const first = hookLog.find((h) => h.name === "post_llm_call")!.payload.sideQuestionToken;
    await turn("again", sessionId);
    expect(await ask("asker", { token: first, prompt: "hi" })).toEqual({ answer: null });
    expect(rig.main.requests.filter((r) => (r.body as any)?.messages?.at(-1)?.content === "hi")).toHaveLength(
      0,
    );
  });

  it("times out as a whole call: null, the request aborted", async () => {
    await turn();
    rig.main.fault({ kind: "stall", afterChunks: 1 });
    const pending = ask("asker", { prompt: "hi", options: { timeout: 2 } });
    await waitFor(() => rig.main.requests.some((r) => (r.body as any)?.messages?.at(-1)?.content === "hi"));
    rig.clock.advance(2_000);
    expect(await pending).toEqual({ answer: null });
  });

  it("counts against the daily budget; a spent budget refuses with PluginLlmBudgetError", async () => {
    const { plugins } = await rig.ok("plugins.list");
    const used = plugins.find((p: any) => p.id === "asker").runtime.tokensToday;
    rig.host.settings.update((doc) => {
      doc.plugins!.entries!.asker!.limits = { daily_tokens: used + 1 };
    });
    try {
      await turn();
      rig.main.enqueue("one");
      expect(await ask("asker", { prompt: "hi" })).toEqual({ answer: "one" });
      await turn();
      const refused = await ask("asker", { prompt: "hi" });
      expect(refused.error).toBe("PluginLlmBudgetError");
    } finally {
      rig.host.settings.update((doc) => {
        delete doc.plugins!.entries!.asker!.limits;
      });
    }
  });

  it("a revoke takes effect on the next call, and the next turn gets no token", async () => {
    await turn();
    const { plugin } = await rig.ok("plugins.revoke", { id: "asker", capability: SQ });
    expect(plugin.capabilities).toEqual([{ id: SQ, granted: false }]);
    expect(await ask("asker", { prompt: "hi" })).toEqual({ answer: null });
    await waitFor(async () => (await command("asker", "cap", {})).has === false, 5000, "the worker's mirror");
    await turn();
    expect(hookLog.filter((h) => h.name === "post_llm_call").at(-1)!.payload.sideQuestionToken).toBeNull();
    expect(fs.readFileSync(path.join(rig.home, "logs", "agent.log"), "utf8")).toMatch(
      /plugin_revoke plugin=asker capability=llm\.side_question/,
    );
    const bad = await rig.call("plugins.revoke", { id: "asker", capability: "llm.nope" });
    expect(bad.error?.data.reason).toBe("invalid_params");
  });
});
