/** docs/contract.md §9.1: a model's context window and vision — config, then the provider's list, then names, then defaults. */
import { describe, expect, it } from "vitest";
import { defaultSettings, type Settings } from "../../../electron/host/config/config-schema.js";
import { findDocumentIssues } from "../../../electron/host/config/schema-issues.js";
import {
  contextWindowOf,
  DEFAULT_CONTEXT_WINDOW,
  ModelInfoCache,
  supportsVision,
} from "../../../electron/host/models/model-capabilities.js";

const settings: Settings = {
  ...defaultSettings(),
  providers: {
    local: {
      name: "Local",
      base_url: "http://127.0.0.1:8080/v1",
      models: { "qwen3-8b": { context_window: 40_960, vision: false }, "my-vl": { vision: true } },
    },
    router: { name: "Router", base_url: "https://openrouter.ai/api/v1" },
  },
};

describe("model capabilities", () => {
  it("config.yaml wins", () => {
    expect(contextWindowOf(settings, "local", "qwen3-8b")).toBe(40_960);
    expect(supportsVision(settings, "local", "my-vl")).toBe(true);
    expect(supportsVision(settings, "LOCAL", "my-vl")).toBe(true);
  });

  it("then what the provider's model list said", () => {
    const listed = new ModelInfoCache();
    listed.record("router", [
      { id: "acme/big", context_length: 65_536, architecture: { input_modalities: ["text", "image"] } },
      { id: "acme/plain" },
      "not an entry",
    ]);
    expect(contextWindowOf(settings, "router", "acme/big", listed)).toBe(65_536);
    expect(supportsVision(settings, "router", "acme/big", listed)).toBe(true);
    expect(contextWindowOf(settings, "router", "acme/plain", listed)).toBe(DEFAULT_CONTEXT_WINDOW);
  });

  it("then well-known names, else 32,768 tokens and text-only", () => {
    expect(contextWindowOf(settings, "router", "openai/gpt-4o-mini")).toBe(128_000);
    expect(supportsVision(settings, "router", "openai/gpt-4o-mini")).toBe(true);
    expect(contextWindowOf(settings, "router", "anthropic/claude-sonnet-4")).toBe(200_000);
    expect(supportsVision(settings, "router", "meta-llama/llama-3.1-8b-instruct")).toBe(false);
    expect(supportsVision(settings, "router", "qwen/qwen2.5-vl-7b")).toBe(true);
    expect(contextWindowOf(settings, "router", "fake/chat-small")).toBe(32_768);
    expect(supportsVision(settings, "router", "fake/chat-small")).toBe(false);
  });
});

describe("providers.<id>.models in config.yaml", () => {
  it("accepts context_window and vision per model, and names a bad value's key", () => {
    const doc = (models: unknown) => ({
      providers: { local: { name: "L", base_url: "http://127.0.0.1/v1", models } },
    });
    expect(findDocumentIssues(doc({ "qwen3-8b": { context_window: 32_768, vision: false } }))).toEqual([]);
    const issues = findDocumentIssues(doc({ "qwen3-8b": { context_window: "big" } }));
    expect(JSON.stringify(issues)).toContain("context_window");
    expect(findDocumentIssues(doc({ m: { colour: "red" } })).length).toBeGreaterThan(0);
  });
});
