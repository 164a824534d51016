import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeProvider, type FakeProvider } from "../../fixtures/fake-provider.js";
import { waitFor } from "../support/temp-home.js";
import { startTestHost, type TestHost } from "../support/test-host.js";

const KEY = "sk-test-2222222222222222222222222222bndl";
const bundledDir = fileURLToPath(new URL("../../../plugins/", import.meta.url));
let t: TestHost;
let provider: FakeProvider;
const chat = { sessionId: "session-1", gatewaySessionKey: "window-1" };

beforeAll(async () => {
  provider = await startFakeProvider({ apiKey: KEY });
  t = await startTestHost();
  const saved = await t.call("providers.save", {
    id: "fake",
    name: "Fake",
    base_url: provider.baseURL,
    apiKey: KEY,
  });
  expect(saved.error).toBeUndefined();
  expect(
    (await t.call("model.set", { scope: "main", provider: "fake", model: "fake/chat-small" })).error,
  ).toBeUndefined();
});
afterAll(async () => {
  await t.dispose();
  await provider.close();
});

type ListResult = { plugins: { id: string; status: string; enabled: boolean; source: string }[] };

describe("bundled plugin folders", () => {
  it.each([
    ["tldr", "/tldr"],
    ["paste-to-tasks", "/paste-to-tasks"],
    ["error-explainer", "post_tool_call"],
    ["action-items", "record_action_item"],
  ])("%s has a plugin.yaml, its module and a README that says how to use it", (id, usage) => {
    const dir = path.join(bundledDir, id);
    expect(fs.readFileSync(path.join(dir, "plugin.yaml"), "utf8")).toContain(`name: ${id}`);
    expect(fs.existsSync(path.join(dir, "index.js"))).toBe(true);
    expect(fs.readFileSync(path.join(dir, "README.md"), "utf8")).toContain(usage);
  });
});

describe("bundled plugins through the host's RPC", () => {
  it("lists the bundled plugins, none enabled by default", async () => {
    const { result } = await t.call("plugins.list");
    const plugins = (result as ListResult).plugins.filter((p) => p.source === "bundled");
    expect(plugins.map((p) => p.id)).toEqual(
      expect.arrayContaining(["error-explainer", "paste-to-tasks", "tldr"]),
    );
    for (const plugin of plugins) expect(plugin).toMatchObject({ enabled: false, status: "disabled" });
  });

  it("enable tldr, see /tldr in the autocomplete, run it (also in a chat), disable it", async () => {
    const { result } = await t.call("plugins.setEnabled", { id: "tldr", enabled: true });
    expect(result).toMatchObject({ plugin: { id: "tldr", status: "loaded", enabled: true } });
    const commands = (await t.call("plugins.commands")).result as { commands: unknown[] };
    expect(commands.commands).toContainEqual({
      name: "tldr",
      description: "Summarise the supplied text in one paragraph.",
      argsHint: "<text>",
      pluginId: "tldr",
    });
    const tldr = t.host.pluginRegistries.commands.get("tldr")!;
    expect(await tldr.handler("   ", chat)).toBe("Usage: /tldr <text to summarise>");
    provider.enqueue("A short summary.");
    expect(await tldr.handler("a very long text", chat)).toBe("A short summary.");
    const body = provider.lastRequest()!.body as {
      messages: { role: string; content: string }[];
      max_tokens: number;
    };
    expect(body.messages[1]).toEqual({ role: "user", content: "a very long text" });
    expect(body.max_tokens).toBe(256);
    t.host.log.flush();
    expect(fs.readFileSync(t.host.log.file, "utf8")).toMatch(
      /plugin_llm plugin=tldr provider=fake .* purpose=tldr .* outcome=ok/,
    );

    // In a chat: the command's answer lands in the transcript and its usage is billed to the session.
    const created = (await t.call("session.create", {})).result as { sessionId: string };
    provider.enqueue({
      kind: "text",
      content: "The chat summary.",
      usage: { promptTokens: 40, completionTokens: 4 },
    });
    const sent = await t.call("session.send", { sessionId: created.sessionId, text: "/tldr a long paste" });
    expect(sent.error).toBeUndefined();
    const messages = await waitFor(
      async () => {
        const { result } = await t.call("session.messages", { sessionId: created.sessionId });
        const list = (result as { messages: { role: string; content: string }[] }).messages;
        return list.some((m) => m.role === "assistant") ? list : null;
      },
      5000,
      "the /tldr answer",
    );
    expect(messages!.map((m) => [m.role, m.content])).toEqual([
      ["user", "/tldr a long paste"],
      ["assistant", "The chat summary."],
    ]);
    const usage = (await t.call("session.usage", { sessionId: created.sessionId })).result as {
      rows: { category: string; inputTokens: number; outputTokens: number }[];
    };
    expect(usage.rows).toContainEqual(
      expect.objectContaining({ category: "plugin_llm:tldr", inputTokens: 40, outputTokens: 4 }),
    );

    await t.call("plugins.setEnabled", { id: "tldr", enabled: false });
    expect(t.host.pluginRegistries.commands.get("tldr")).toBeUndefined();
    expect(((await t.call("plugins.commands")).result as { commands: unknown[] }).commands).toEqual([]);
  });

  it("paste-to-tasks extracts tasks with a schema and formats them", async () => {
    await t.call("plugins.setEnabled", { id: "paste-to-tasks", enabled: true });
    const command = t.host.pluginRegistries.commands.get("paste-to-tasks")!;
    expect(await command.handler("", chat)).toBe("Usage: /paste-to-tasks <meeting notes>");
    provider.enqueue({
      kind: "json",
      value: {
        tasks: [{ owner: "Ana", action: "Send the budget", due: "2026-12-01" }, { action: "Book the room" }],
      },
    });
    expect(await command.handler("Ana sends the budget by Dec 1. Someone books the room.", chat)).toBe(
      "- [Ana] Send the budget (due 2026-12-01)\n- [?] Book the room",
    );
    expect(provider.lastRequest()!.responseFormat).toMatchObject({
      type: "json_schema",
      json_schema: { name: "meeting_tasks" },
    });
  });

  it("paste-to-tasks answers a non-JSON reply and a reply of the wrong shape in plain words", async () => {
    const command = t.host.pluginRegistries.commands.get("paste-to-tasks")!;
    provider.enqueue("I could not find any tasks.");
    expect(await command.handler("notes", chat)).toBe(
      "Couldn't parse a response. Raw output:\nI could not find any tasks.",
    );
    provider.enqueue({ kind: "json", value: { tasks: [{ owner: "Ana" }] } });
    expect(await command.handler("notes", chat)).toMatch(
      /^The model's answer did not have the expected shape \(.*did not match schema.*\)\. Try again\.$/,
    );
  });

  it("error-explainer returns {explanation} for a failed tool and nothing for a good one", async () => {
    await t.call("plugins.setEnabled", { id: "error-explainer", enabled: true });
    const hooks = t.host.pluginRegistries.hooks;
    const before = provider.requests.length;
    const ok = await hooks.fire("post_tool_call", {
      ...chat,
      toolName: "read_file",
      args: {},
      result: "file contents",
    });
    expect(ok.find((o) => o.pluginId === "error-explainer")).toMatchObject({
      status: "ok",
      value: undefined,
    });
    expect(provider.requests.length).toBe(before);

    provider.enqueue("The file you asked for does not exist.\nExtra line.");
    const failed = await hooks.fire("post_tool_call", {
      ...chat,
      toolName: "read_file",
      args: { path: "/nope" },
      result: { error: "ENOENT: no such file or directory, open '/nope'" },
    });
    expect(failed.find((o) => o.pluginId === "error-explainer")).toMatchObject({
      status: "ok",
      value: { explanation: "The file you asked for does not exist." },
    });
    provider.enqueue("The key was refused.");
    const leaky = await hooks.fire("post_tool_call", {
      ...chat,
      toolName: "http_get",
      args: {},
      result: { error: `401 for https://api.example.invalid with key ${KEY}` },
    });
    expect(leaky.find((o) => o.pluginId === "error-explainer")).toMatchObject({
      value: { explanation: "The key was refused." },
    });
    // The error is redacted with force before it leaves the machine.
    expect(provider.lastRequest()!.rawBody).toContain("401 for https://api.example.invalid");
    expect(provider.lastRequest()!.rawBody).not.toContain(KEY);
    provider.enqueue("It failed.");
    const stringError = await hooks.fire("post_tool_call", {
      ...chat,
      toolName: "x",
      args: {},
      result: "Error: exit 1",
    });
    expect(stringError.find((o) => o.pluginId === "error-explainer")).toMatchObject({
      value: { explanation: "It failed." },
    });
  });

  it("answers plugin_not_found for an unknown id, and openFolder gives the user plugins folder", async () => {
    const missing = await t.call("plugins.setEnabled", { id: "nope", enabled: true });
    expect(missing.error?.data.reason).toBe("plugin_not_found");
    const { result } = await t.call("plugins.openFolder");
    const { path, opened } = result as { path: string; opened: boolean };
    expect(path).toBe(`${t.home}/plugins`);
    expect(fs.statSync(path).isDirectory()).toBe(true);
    expect(opened).toBe(false);
  });

  it("rescan picks up a new user plugin folder", async () => {
    fs.mkdirSync(`${t.home}/plugins/fresh`, { recursive: true });
    fs.writeFileSync(`${t.home}/plugins/fresh/plugin.yaml`, "name: fresh\nversion: 0.1.0\nmain: index.js\n");
    fs.writeFileSync(`${t.home}/plugins/fresh/index.js`, "export function register() {}");
    const { result } = await t.call("plugins.rescan");
    expect((result as ListResult).plugins).toContainEqual(
      expect.objectContaining({ id: "fresh", source: "user", status: "disabled" }),
    );
  });
});
