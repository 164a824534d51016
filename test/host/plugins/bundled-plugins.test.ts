import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeProvider, type FakeProvider } from "../../fixtures/fake-provider.js";
import { startTestHost, type TestHost } from "../support/test-host.js";

const KEY = "sk-test-2222222222222222222222222222bndl";
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

describe("bundled plugins through the host's RPC", () => {
  it("lists the bundled plugins, none enabled by default", async () => {
    const { result } = await t.call("plugins.list");
    const plugins = (result as ListResult).plugins.filter((p) => p.source === "bundled");
    expect(plugins.map((p) => p.id)).toEqual(
      expect.arrayContaining(["error-explainer", "paste-to-tasks", "tldr"]),
    );
    for (const plugin of plugins) expect(plugin).toMatchObject({ enabled: false, status: "disabled" });
  });

  it("enable tldr, see /tldr in the autocomplete, run it, disable it", async () => {
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
    expect(fs.readFileSync(t.host.log.file, "utf8")).toMatch(
      /plugin_llm plugin=tldr provider=fake .* purpose=tldr .* outcome=ok/,
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
