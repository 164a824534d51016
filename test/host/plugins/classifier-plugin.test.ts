/**
 * The bundled `classifier` plugin (issue: a plugin slot on the page): its slot inherits from
 * `compression` with a 90 s default timeout, and `/classify` calls the model on that slot.
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AuxiliaryTaskRow } from "../../../electron/host/rpc/methods/model.js";
import { startFakeProvider, type FakeProvider } from "../../fixtures/fake-provider.js";
import { startTestHost, type TestHost } from "../support/test-host.js";

const KEY = "sk-test-3333333333333333333333333333clas";
const OTHER_KEY = "sk-test-4444444444444444444444444444clas";
let t: TestHost;
let main: FakeProvider;
let other: FakeProvider;
const chat = { sessionId: "session-c", gatewaySessionKey: "window-1" };
const answer = {
  kind: "text" as const,
  content: JSON.stringify({ category: "question", reason: "It asks how." }),
};

beforeAll(async () => {
  main = await startFakeProvider({ apiKey: KEY });
  other = await startFakeProvider({ apiKey: OTHER_KEY });
  t = await startTestHost();
  await t.call("providers.save", { id: "fake", name: "Fake", base_url: main.baseURL, apiKey: KEY });
  await t.call("providers.save", { id: "other", name: "Other", base_url: other.baseURL, apiKey: OTHER_KEY });
  await t.call("model.set", { scope: "main", provider: "fake", model: "fake/chat-small" });
  const enabled = await t.call("plugins.setEnabled", { id: "classifier", enabled: true });
  expect(enabled.result).toMatchObject({ plugin: { status: "loaded" } });
});
afterAll(async () => {
  await t.dispose();
  await main.close();
  await other.close();
});
beforeEach(() => {
  main.reset();
  other.reset();
});

const rows = async () =>
  ((await t.call("model.auxiliary.list")).result as { tasks: AuxiliaryTaskRow[] }).tasks;
const classify = (text: string) => t.host.pluginRegistries.commands.get("classify")!.handler(text, chat);

describe("the classifier plugin", () => {
  it("ships a README that says how to use it", () => {
    const dir = fileURLToPath(new URL("../../../plugins/classifier/", import.meta.url));
    expect(fs.readFileSync(`${dir}README.md`, "utf8")).toContain("/classify");
  });

  it("registers its slot after the built-ins, inheriting compression with a 90 s timeout", async () => {
    const row = (await rows()).at(-1)!;
    expect(row).toMatchObject({
      task: "classifier",
      label: "Classifier",
      plugin: "classifier",
      inherit_from: "compression",
      timeout: 90,
      source: "main",
    });
  });

  it("/classify runs on the main model until something is pinned", async () => {
    main.enqueue(answer);
    expect(await classify("How do I pin a slot?")).toBe("Category: question — It asks how.");
    expect(main.requests).toHaveLength(1);
    expect(main.requests[0]!.body).toMatchObject({
      model: "fake/chat-small",
      response_format: { type: "json_schema" },
    });
    expect(await classify("  ")).toBe("Usage: /classify <text to sort>");
  });

  it("follows compression's pin only with allow_task_override; its own pin wins", async () => {
    await t.call("model.set", {
      scope: "auxiliary",
      task: "compression",
      provider: "other",
      model: "other/sum",
    });
    main.enqueue(answer);
    await classify("x");
    expect(main.requests).toHaveLength(1);
    t.host.settings.set("plugins.entries.classifier", { llm: { allow_task_override: true } });
    other.enqueue(answer);
    await classify("x");
    expect(other.requests.at(-1)!.body).toMatchObject({ model: "other/sum" });
    expect((await rows()).at(-1)).toMatchObject({
      source: "inherited",
      chain: ["classifier", "compression"],
    });

    await t.call("model.set", {
      scope: "auxiliary",
      task: "classifier",
      provider: "other",
      model: "other/tiny",
    });
    other.enqueue(answer);
    await classify("x");
    expect(other.requests.at(-1)!.body).toMatchObject({ model: "other/tiny" });
    await t.call("model.set", { scope: "auxiliary", task: "__reset__", provider: "auto", model: "" });
  });

  it("disabling it takes the row off the list and keeps its config block", async () => {
    t.host.settings.set("auxiliary.classifier", { provider: "other", model: "kept" });
    await t.call("plugins.setEnabled", { id: "classifier", enabled: false });
    expect((await rows()).map((r) => r.task)).not.toContain("classifier");
    expect(t.host.settings.get().auxiliary.classifier).toEqual({ provider: "other", model: "kept" });
    await t.call("plugins.setEnabled", { id: "classifier", enabled: true });
    expect((await rows()).at(-1)).toMatchObject({ task: "classifier", source: "pin", model: "kept" });
  });
});

describe("/classify when the call fails", () => {
  it("says so in plain words, without error class names or schema paths", async () => {
    main.enqueue({ kind: "text", content: JSON.stringify({ category: "banana", reason: "x" }) });
    const offSchema = await classify("x");
    expect(offSchema).toBe(
      "Couldn't classify this: the model's answer was not one of bug report, question, feature request, other. Try again, or pin another model to the Classifier task in Settings → Models → Auxiliary.",
    );
    main.fault({ kind: "http_error", status: 500 });
    const down = await classify("x");
    expect(down).toMatch(/^Couldn't classify this: /);
    for (const text of [offSchema, down])
      expect(text).not.toMatch(/PluginLlm\w*Error|\/category|must be equal/);
  });
});
