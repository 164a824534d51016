import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { defaultSettings } from "../../../electron/host/config/config-schema.js";
import { findDocumentIssues, settingsValidator } from "../../../electron/host/config/schema-issues.js";
import { repairDocument, toEffectiveSettings } from "../../../electron/host/config/settings-repair.js";

// The example of docs/contract.md §3, with a real-looking hash.
const specExample = `
model:
  provider: openrouter
  model: vendor/model-id
providers:
  openrouter: {name: OpenRouter, base_url: https://openrouter.ai/api/v1, key_env: OPENROUTER_API_KEY}
  local: {name: Local llama.cpp, base_url: http://127.0.0.1:8080/v1}
fallback_providers:
  - {provider: local, model: qwen3-8b}
auxiliary:
  title_generation: {provider: auto, model: "", base_url: "", timeout: 30}
plugins:
  enabled: [chart-writer]
  disabled: []
  entries:
    chart-writer:
      llm: {allow_provider_override: false, allowed_providers: [], allow_model_override: false,
            allowed_models: [], allow_agent_id_override: false, allow_profile_override: false,
            allow_task_override: false}
      granted_capabilities: [llm.side_question]
      capabilities_consent: {hash: ${"ab".repeat(32)}, granted_at: 2026-11-29T10:00:00Z}
security: {redact_secrets: true}
display: {busy_input_mode: queue}
memory: {note: "likes tea"}
chat: {system_prompt: "Be brief."}
`;

const keysOf = (doc: unknown) => findDocumentIssues(doc as Record<string, unknown>).map((issue) => issue.key);

describe("config schema", () => {
  it("accepts the empty document (no config.yaml), which start-up takes as valid without compiling the schema", () => {
    const validate = settingsValidator();
    expect(validate({})).toBe(true);
    expect(findDocumentIssues({})).toEqual([]);
  });

  it("accepts the docs/contract.md §3 example, the defaults and an empty file", () => {
    expect(findDocumentIssues(parse(specExample))).toEqual([]);
    expect(findDocumentIssues(defaultSettings() as unknown as Record<string, unknown>)).toEqual([]);
    expect(findDocumentIssues({})).toEqual([]);
  });

  it("allows unknown top-level keys but not unknown keys inside known sections", () => {
    expect(keysOf({ terminal: { backend: "local" }, agent: { max_turns: 90 } })).toEqual([]);
    expect(keysOf({ display: { busy_input_mode: "queue", skin: "dark" } })).toEqual(["display.skin"]);
    expect(keysOf({ plugins: { entries: { x: { llm: { allow_everything: true } } } } })).toEqual([
      "plugins.entries.x.llm.allow_everything",
    ]);
  });

  it("checks ids, auxiliary blocks and consent records", () => {
    expect(keysOf({ providers: { "-bad": { name: "x", base_url: "https://x" } } })).toEqual([
      "providers.-bad",
    ]);
    expect(keysOf({ providers: { ok: { name: "x", base_url: "ftp://x" } } })).toEqual([
      "providers.ok.base_url",
    ]);
    expect(keysOf({ auxiliary: { "Bad-Key": {} } })).toEqual(["auxiliary.Bad-Key"]);
    expect(keysOf({ auxiliary: { vision: { timeout: "30" } } })).toEqual(["auxiliary.vision.timeout"]);
    expect(keysOf({ auxiliary: { vision: { extra_body: [] } } })).toEqual(["auxiliary.vision.extra_body"]);
    expect(
      keysOf({ auxiliary: { vision: { provider: "main", timeout: 2.5, extra_body: { top_k: 4 } } } }),
    ).toEqual([]);
    expect(keysOf({ plugins: { enabled: ["ok", "Not OK"] } })).toEqual(["plugins.enabled.1"]);
    expect(
      keysOf({
        plugins: { entries: { x: { capabilities_consent: { hash: "nope", granted_at: "yesterday" } } } },
      }),
    ).toEqual([
      "plugins.entries.x.capabilities_consent.hash",
      "plugins.entries.x.capabilities_consent.granted_at",
    ]);
  });

  it("repairs by removing just the offending values, in passes", () => {
    const { repaired, issues } = repairDocument({
      providers: { local: { name: "Local", base_url: 42 }, ok: { name: "Ok", base_url: "https://ok" } },
      fallback_providers: [
        { provider: "ok", model: "a" },
        { provider: "BAD", model: "b" },
        { provider: "ok", model: "c" },
      ],
      display: { busy_input_mode: "loud" },
    });
    // `local` lost its base_url, so the incomplete provider goes in the next pass.
    expect(repaired).toEqual({
      providers: { ok: { name: "Ok", base_url: "https://ok" } },
      fallback_providers: [
        { provider: "ok", model: "a" },
        { provider: "ok", model: "c" },
      ],
      display: {},
    });
    expect(issues.map((issue) => issue.key)).toEqual([
      "providers.local.base_url",
      "fallback_providers.1.provider",
      "display.busy_input_mode",
    ]);
    expect(toEffectiveSettings(repaired).display.busy_input_mode).toBe("queue");
  });
});

describe("broken plugin allowlists fail closed", () => {
  it("turns an allowlist that is not a list into an empty one, not an absent one", () => {
    const { repaired, issues } = repairDocument({
      plugins: {
        entries: { p: { llm: { allow_provider_override: true, allowed_providers: "openrouter" } } },
      },
    });
    expect(issues.map((i) => i.key)).toContain("plugins.entries.p.llm.allowed_providers");
    expect(repaired).toEqual({
      plugins: { entries: { p: { llm: { allow_provider_override: true, allowed_providers: [] } } } },
    });
  });
});
