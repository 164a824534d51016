import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { LocalServerDiscovery } from "../../../electron/host/providers/discovery/discover.js";
import {
  localServerTargets,
  ollamaOrigin,
} from "../../../electron/host/providers/discovery/local-servers.js";
import type { ProviderConfig } from "../../../electron/host/config/config-schema.js";
import {
  freePort,
  startFakeJan,
  startFakeLlamaCpp,
  startFakeLmStudio,
  startFakeOllama,
  startFakeVllm,
  startHangingServer,
  startHtmlServer,
  startOtherProtocolServer,
  startRouteServer,
  type FakeLocalServer,
} from "../../fixtures/fake-local-server.js";
import { requireSecretService, startTestHost, type TestHost } from "../support/test-host.js";

let servers: FakeLocalServer[] = [];
let t: TestHost | undefined;
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  await t?.dispose();
  t = undefined;
});

async function keep<T extends FakeLocalServer>(server: Promise<T>): Promise<T> {
  const started = await server;
  servers.push(started);
  return started;
}

/** Where a test expects answers, a deadline a loaded machine meets; the 300 ms default is the bench's concern. */
const answerWithin = 5_000;
const noProviders = (): Record<string, ProviderConfig> => ({});

describe("providers.discover", () => {
  it("finds each kind of server from its documented API, with context windows and vision where it says them", async () => {
    const ollama = await keep(
      startFakeOllama({
        models: [
          { name: "llama3.2:3b", contextLength: 131072, capabilities: ["completion", "tools"] },
          { name: "llava:7b", contextLength: 32768, capabilities: ["completion", "vision"] },
          { name: "nomic-embed-text:latest", contextLength: 8192, capabilities: ["embedding"] },
        ],
      }),
    );
    const llama = await keep(startFakeLlamaCpp({ model: "qwen3-4b", nCtx: 16384, vision: false }));
    const vllm = await keep(startFakeVllm({ model: "Qwen/Qwen3-8B", maxModelLen: 32768 }));
    const lmstudio = await keep(
      startFakeLmStudio({
        models: [
          { id: "qwen2-vl-7b-instruct", type: "vlm", maxContextLength: 32768 },
          { id: "text-embedding-nomic-embed-text-v1.5", type: "embeddings", maxContextLength: 2048 },
        ],
      }),
    );
    const jan = await keep(startFakeJan({ models: ["llama3.2-3b-instruct"] }));
    const discovery = new LocalServerDiscovery(noProviders, {
      timeoutMs: answerWithin,
      targets: [
        { kind: "ollama", origin: ollama.origin },
        { kind: "lmstudio", origin: lmstudio.origin },
        { kind: "llamacpp", origin: llama.origin },
        { kind: "vllm", origin: vllm.origin },
        { kind: "jan", origin: jan.origin },
      ],
    });
    const { servers: found } = await discovery.discover();
    expect(found).toEqual([
      {
        kind: "ollama",
        base_url: `${ollama.origin}/v1`,
        status: "found",
        models: [
          { id: "llama3.2:3b", context_window: 131072, vision: false },
          { id: "llava:7b", context_window: 32768, vision: true },
        ],
        providerId: "ollama",
        added: false,
        name: "Ollama",
      },
      {
        kind: "lmstudio",
        base_url: `${lmstudio.origin}/v1`,
        status: "found",
        models: [{ id: "qwen2-vl-7b-instruct", context_window: 32768, vision: true }],
        providerId: "lmstudio",
        added: false,
        name: "LM Studio",
      },
      {
        kind: "llamacpp",
        base_url: `${llama.origin}/v1`,
        status: "found",
        models: [{ id: "qwen3-4b", context_window: 16384, vision: false }],
        providerId: "llamacpp",
        added: false,
        name: "llama.cpp server",
      },
      {
        kind: "vllm",
        base_url: `${vllm.origin}/v1`,
        status: "found",
        models: [{ id: "Qwen/Qwen3-8B", context_window: 32768 }],
        providerId: "vllm",
        added: false,
        name: "vLLM",
      },
      {
        kind: "jan",
        base_url: `${jan.origin}/v1`,
        status: "found",
        models: [{ id: "llama3.2-3b-instruct" }],
        providerId: "jan",
        added: false,
        name: "Jan",
      },
    ]);
    // Ollama is asked for its tags first, then its OpenAI-compatible /v1.
    expect(ollama.requests).toContain("GET /api/tags");
    expect(ollama.requests).toContain("GET /v1/models");
  });

  it("reports a port that hangs, answers HTML or speaks another protocol as not a model server, and leaves out a closed one", async () => {
    const hanging = await keep(startHangingServer());
    const html = await keep(startHtmlServer());
    const ssh = await keep(startOtherProtocolServer());
    const closed = await freePort();
    const discovery = new LocalServerDiscovery(noProviders, {
      targets: [
        { kind: "ollama", origin: html.origin },
        { kind: "lmstudio", origin: hanging.origin },
        { kind: "llamacpp", origin: ssh.origin },
        { kind: "vllm", origin: `http://127.0.0.1:${closed}` },
      ],
    });
    const { servers: found } = await discovery.discover();
    expect(found.map((s) => [s.kind, s.status, s.models])).toEqual([
      ["ollama", "not_model_server", []],
      ["lmstudio", "not_model_server", []],
      ["llamacpp", "not_model_server", []],
    ]);
    expect(hanging.requests.length).toBeGreaterThan(0);
  });

  it("refuses JSON that is not a model list, and an Ollama whose /v1 does not answer", async () => {
    const wrongShape = await keep(
      startRouteServer({ "GET /v1/models": () => ({ json: { data: [{ name: "no id" }] } }) }),
    );
    const tagsOnly = await keep(
      startRouteServer({ "GET /api/tags": () => ({ json: { models: [{ name: "llama3.2:3b" }] } }) }),
    );
    const discovery = new LocalServerDiscovery(noProviders, {
      timeoutMs: answerWithin,
      targets: [
        { kind: "vllm", origin: wrongShape.origin },
        { kind: "ollama", origin: tagsOnly.origin },
      ],
    });
    const { servers: found } = await discovery.discover();
    expect(found.map((s) => [s.kind, s.status])).toEqual([
      ["vllm", "not_model_server"],
      ["ollama", "not_model_server"],
    ]);
  });

  it("says which server is added already, and which id a new one would get", async () => {
    const ollama = await keep(startFakeOllama({ models: [{ name: "llama3.2:3b" }] }));
    const jan = await keep(startFakeJan({ models: ["m"] }));
    const configured: Record<string, ProviderConfig> = {
      // Added before, under another name and written with localhost.
      "my-ollama": { name: "My Ollama", base_url: `http://localhost:${ollama.port}/v1/` },
      // The id "jan" is taken by a provider elsewhere.
      jan: { name: "Jan elsewhere", base_url: "http://10.0.0.9:1337/v1" },
    };
    const discovery = new LocalServerDiscovery(() => configured, {
      timeoutMs: answerWithin,
      targets: [
        { kind: "ollama", origin: ollama.origin },
        { kind: "jan", origin: jan.origin },
      ],
    });
    const { servers: found } = await discovery.discover();
    expect(found.map((s) => [s.kind, s.providerId, s.added, s.name])).toEqual([
      ["ollama", "my-ollama", true, "My Ollama"],
      ["jan", "jan-2", false, "Jan"],
    ]);
  });

  it("also probes a local base URL the user configured, telling its kind by what it answers", async () => {
    const vllm = await keep(startFakeVllm({ model: "Qwen/Qwen3-8B", maxModelLen: 32768 }));
    const configured: Record<string, ProviderConfig> = {
      "gpu-box": { name: "GPU box", base_url: `${vllm.origin}/v1` },
      // A remote provider is never probed.
      openrouter: { name: "OpenRouter", base_url: "https://openrouter.ai/api/v1" },
    };
    const discovery = new LocalServerDiscovery(() => configured, { timeoutMs: answerWithin, targets: [] });
    const { servers: found } = await discovery.discover();
    expect(found).toEqual([
      {
        kind: "vllm",
        base_url: `${vllm.origin}/v1`,
        status: "found",
        models: [{ id: "Qwen/Qwen3-8B", context_window: 32768 }],
        providerId: "gpu-box",
        added: true,
        name: "GPU box",
      },
    ]);
  });

  it("gives servers the time HERMES_DESKTOP_DISCOVERY_TIMEOUT_MS says (300 ms by default)", async () => {
    // Answers its list after 600 ms: too late for the default deadline.
    const slow = await keep(
      startRouteServer({
        "GET /v1/models": () => ({
          json: { object: "list", data: [{ id: "m", object: "model" }] },
          delayMs: 600,
        }),
      }),
    );
    const targets = [{ kind: "jan" as const, origin: slow.origin }];
    const hurried = await new LocalServerDiscovery(noProviders, { targets, env: {} }).discover();
    expect(hurried.servers.map((s) => s.status)).toEqual(["not_model_server"]);
    const patient = await new LocalServerDiscovery(noProviders, {
      targets,
      env: { HERMES_DESKTOP_DISCOVERY_TIMEOUT_MS: "5000" },
    }).discover();
    expect(patient.servers.map((s) => s.status)).toEqual(["found"]);
  });

  it("reads OLLAMA_HOST as Ollama does, and llama-server's LLAMA_ARG_HOST / LLAMA_ARG_PORT", () => {
    expect(ollamaOrigin("127.0.0.1:5000")).toBe("http://127.0.0.1:5000");
    expect(ollamaOrigin("0.0.0.0")).toBe("http://127.0.0.1:11434");
    expect(ollamaOrigin(":9999")).toBe("http://127.0.0.1:9999");
    expect(ollamaOrigin("http://gpu.local")).toBe("http://gpu.local");
    expect(ollamaOrigin("https://gpu.local:8443/")).toBe("https://gpu.local:8443");
    expect(ollamaOrigin("[::1]:7000")).toBe("http://[::1]:7000");
    expect(ollamaOrigin("ftp://x")).toBeNull();
    expect(ollamaOrigin("host:notaport")).toBeNull();
    const targets = localServerTargets({ OLLAMA_HOST: "127.0.0.1:5000", LLAMA_ARG_PORT: "9090" });
    expect(targets).toEqual([
      { kind: "ollama", origin: "http://127.0.0.1:5000" },
      { kind: "lmstudio", origin: "http://127.0.0.1:1234" },
      { kind: "llamacpp", origin: "http://127.0.0.1:9090" },
      { kind: "vllm", origin: "http://127.0.0.1:8000" },
      { kind: "jan", origin: "http://127.0.0.1:1337" },
    ]);
  });

  describe("through the host", () => {
    beforeAll(() => requireSecretService());

    it("answers providers.discover with OLLAMA_HOST honoured, and writes nothing", async () => {
      const ollama = await keep(startFakeOllama({ models: [{ name: "llama3.2:3b", contextLength: 8192 }] }));
      t = await startTestHost({
        host: { discovery: { timeoutMs: answerWithin, env: { OLLAMA_HOST: `127.0.0.1:${ollama.port}` } } },
      });
      const answer = await t.call("providers.discover");
      // The other well-known ports belong to this machine: whatever runs there is not asserted on.
      const servers = (answer.result as { servers: { kind: string }[] }).servers;
      expect(servers.find((s) => s.kind === "ollama")).toEqual({
        kind: "ollama",
        base_url: `${ollama.origin}/v1`,
        status: "found",
        models: [{ id: "llama3.2:3b", context_window: 8192, vision: false }],
        providerId: "ollama",
        added: false,
        name: "Ollama",
      });
      expect((await t.call("providers.list")).result).toEqual({ providers: [] });
    });
  });
});
