/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
/**
 * The secret canary: one known key, shaped like no known key pattern (so only the vault's list
 * can catch it), sent back by a provider through every path that carries provider text — a 401
 * and a 500 body, a mid-stream error, a streamed reply split across chunks, a title, tool-call
 * arguments and a tool result, the models endpoint — with `security.redact_secrets` off. Then
 * every event, every answer, the store, the log and config.yaml are scanned for it.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createHost, type Host } from "../../../electron/host/create-host.js";
import { createKeytarVault } from "../../../electron/host/secrets/vault.js";
import { startFakeProvider, type FakeProvider } from "../../fixtures/fake-provider.js";
import { requireSecretService } from "../support/test-host.js";
import { tempHome } from "../support/temp-home.js";

const CANARY = `canary${randomBytes(16).toString("hex")}`;
const quoted = `Incorrect API key provided: ${CANARY}. You can find your API key at https://example.invalid.`;

let home: { dir: string; cleanup(): void };
let provider: FakeProvider;
/** The title slot's provider, so titles can succeed and fail on their own schedule. */
let titles: FakeProvider;
let host: Host;
const frames: unknown[] = [];
const answers: unknown[] = [];
let seq = 0;

async function call(method: string, params: unknown = {}): Promise<any> {
  const answer = await host.router.handle(
    { jsonrpc: "2.0", id: ++seq, method, params },
    { connectionId: "w" },
  );
  answers.push(answer);
  return answer;
}

async function turn(sessionId: string, text: string): Promise<void> {
  await call("session.send", { sessionId, text });
  await host.sessions.idle(sessionId);
}

beforeEach(async () => {
  requireSecretService();
  home = tempHome("hermes-canary-");
  provider = await startFakeProvider();
  titles = await startFakeProvider();
  host = createHost({
    home: home.dir,
    vault: createKeytarVault({ service: `hermes-desktop-test-${randomUUID()}`, env: { CANARY_KEY: CANARY } }),
    mode: "web",
    version: "0.0.0-test",
    bundledPluginsDir: null,
  });
  host.settings.update((doc) => {
    doc.providers = {
      main: { name: "Main", base_url: provider.baseURL, key_env: "CANARY_KEY" },
      titles: { name: "Titles", base_url: titles.baseURL, key_env: "CANARY_KEY" },
    };
    doc.model = { provider: "main", model: "fake/chat-small" };
    doc.auxiliary = { title_generation: { provider: "titles", model: "fake/chat-small" } };
    doc.security = { redact_secrets: false };
  });
  host.events.subscribe((frame) => frames.push(frame));
});

afterEach(async () => {
  await host.close();
  await provider.close();
  await titles.close();
  home.cleanup();
});

function countHits(text: string): number {
  return text.split(CANARY).length - 1;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("a provider quoting a key never gets it shown, stored, answered or logged", () => {
  it("the canary is found nowhere, with redact_secrets off", async () => {
    host.pluginRegistries.tools.register({
      pluginId: "canary-test",
      name: "echo",
      toolset: "test",
      description: "Echoes its argument and quotes what a provider said.",
      parameters: { type: "object", properties: { text: { type: "string" } } },
      handler: (args) => `echo ${(args as { text?: string }).text ?? ""}; the provider said ${quoted}`,
    });
    const { result } = await call("session.create", {});
    const sessionId = result.sessionId as string;

    // The key resolves once so the vault knows it (as any real request does).
    provider.enqueue({ kind: "text", content: `Your key is ${CANARY} — keep it safe.`, chunks: 7 });
    titles.enqueue({ kind: "text", content: `Title ${CANARY}` });
    await turn(sessionId, "hello");
    await vi.waitFor(() => expect(frames.some((f: any) => f.params.type === "session.title")).toBe(true));
    // A title that fails is logged with the provider's words.
    const second = (await call("session.create", {})).result.sessionId as string;
    titles.fault({ kind: "http_error", status: 401, message: quoted });
    provider.enqueue("Fine.");
    await turn(second, "hi again");
    await vi.waitFor(() =>
      expect(
        existsSync(join(home.dir, "logs", "agent.log")) &&
          readFileSync(join(home.dir, "logs", "agent.log"), "utf8"),
      ).toMatch(/title_generation_failed/),
    );

    provider.fault({ kind: "http_error", status: 401, message: quoted, code: "invalid_api_key" });
    await turn(sessionId, "401 please");
    provider.fault({ kind: "http_error", status: 500, message: quoted });
    await turn(sessionId, "500 please");
    provider.enqueue({ kind: "text", content: `Streaming ${CANARY} and then`, chunks: 3 });
    provider.fault({ kind: "stream_error", afterChunks: 2, message: quoted });
    await turn(sessionId, "break mid-stream");

    provider.enqueue({
      kind: "tool_calls",
      toolCalls: [{ name: "echo", arguments: { text: CANARY } }],
      content: `Calling with ${CANARY}`,
    });
    provider.enqueue({ kind: "text", content: `Done with Bearer ${CANARY}`, model: `model-${CANARY}` });
    await turn(sessionId, "use the tool");

    provider.fault({ kind: "http_error", status: 401, message: quoted }, { endpoint: "models" });
    const models = await call("providers.models", { id: "main" });
    expect(models.error?.data.reason).toBe("provider_error");
    // A model list that quotes the key: the ids come back masked.
    provider.setModels(["fake/model", `model-${CANARY}`]);
    const listed = await call("providers.models", { id: "main" });
    expect(listed.result).toMatchObject({ models: expect.arrayContaining(["model-***"]) });

    await call("session.messages", { sessionId });
    await call("session.list", {});
    await call("session.usage", { sessionId });
    await call("settings.get", {});
    await call("host.info", {});
    await host.close();

    const places: Record<string, string> = {
      events: JSON.stringify(frames),
      answers: JSON.stringify(answers),
    };
    for (const file of filesUnder(home.dir))
      places[file.slice(home.dir.length + 1)] = readFileSync(file, "latin1");
    expect(Object.keys(places)).toEqual(expect.arrayContaining(["sessions.sqlite", "config.yaml"]));
    expect(existsSync(join(home.dir, "logs", "agent.log"))).toBe(true);

    const hits = Object.fromEntries(Object.entries(places).map(([name, text]) => [name, countHits(text)]));
    const total = Object.values(hits).reduce((a, b) => a + b, 0);
    console.log(
      `secret canary: ${total} hits in ${Object.keys(places).length} places (${Object.keys(places).join(", ")})`,
    );
    expect(hits).toEqual(Object.fromEntries(Object.keys(places).map((name) => [name, 0])));
    // The paths really ran: errors, a streamed reply, a tool result and a title are all there.
    const messages = (answers.at(-5) as any).result.messages as any[];
    expect(messages.filter((m) => m.role === "assistant").length).toBeGreaterThanOrEqual(5);
    expect(messages.some((m) => m.role === "tool" && m.content.includes("echo"))).toBe(true);
    expect(places.events).toContain("Incorrect API key provided: ***");
    // The person's own words stay untouched.
    expect(places.answers).toContain("use the tool");
    host = createHost({
      home: home.dir,
      vault: createKeytarVault({ service: `hermes-desktop-test-${randomUUID()}` }),
      mode: "web",
      version: "0.0.0-test",
      bundledPluginsDir: null,
    });
  });
});
