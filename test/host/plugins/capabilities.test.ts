/**
 * The capability registry and consent storage (docs/contract.md §7.1, §7.2) as pure rules: the consent hash,
 * what is pending (only new ones after an update), corrupt grants reading as not granted, the
 * override capabilities mirroring the legacy `llm.allow_*` flags, and how answers are written.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { PluginEntryDocument, SettingsDocument } from "../../../electron/host/config/config-schema.js";
import {
  CAPABILITY_TEXT,
  capabilitiesHash,
  effectiveLlmPolicy,
  isCapabilityGranted,
  pendingCapabilities,
} from "../../../electron/host/plugins/capabilities/capabilities.js";
import {
  ConsentInputError,
  applyConsent,
  applyRevoke,
  validateGrant,
} from "../../../electron/host/plugins/capabilities/consent.js";

const NOW = Date.UTC(2026, 10, 29, 10, 0, 0);
const sq = "llm.side_question";
const fork = "llm.session_fork";
const consented = (declared: string[], granted: unknown): PluginEntryDocument =>
  ({
    granted_capabilities: granted,
    capabilities_consent: { hash: capabilitiesHash(declared), granted_at: "2026-11-29T10:00:00Z" },
  }) as PluginEntryDocument;

describe("the consent hash", () => {
  it("is the sha256 of the sorted ids joined by newlines, whatever the declared order", () => {
    const expected = createHash("sha256").update("llm.session_fork\nllm.side_question").digest("hex");
    expect(capabilitiesHash([sq, fork])).toBe(expected);
    expect(capabilitiesHash([fork, sq])).toBe(expected);
  });

  it("changes with the declared set", () => {
    expect(capabilitiesHash([sq])).not.toBe(capabilitiesHash([sq, fork]));
    expect(capabilitiesHash([sq])).not.toBe(capabilitiesHash([fork]));
  });
});

describe("pending capabilities", () => {
  it("are every declared one before any answer, none once answered", () => {
    expect(pendingCapabilities([sq, fork], undefined)).toEqual([sq, fork]);
    expect(pendingCapabilities([sq, fork], consented([sq, fork], [sq]))).toEqual([]);
    expect(pendingCapabilities([], undefined)).toEqual([]);
  });

  it("after an update, only the new ones: a declined one is not asked again", () => {
    // side_question was declined (hash stored, nothing granted); the update adds session_fork.
    expect(pendingCapabilities([sq, fork], consented([sq], []))).toEqual([fork]);
    // A granted one is not asked either.
    expect(pendingCapabilities([sq, fork], consented([sq], [sq]))).toEqual([fork]);
    // Dropping a capability asks nothing.
    expect(pendingCapabilities([sq], consented([sq, fork], []))).toEqual([]);
  });

  it("a corrupt consent record reads as never answered", () => {
    const entry = { capabilities_consent: { hash: "nope", granted_at: 5 } } as unknown as PluginEntryDocument;
    expect(pendingCapabilities([sq], entry)).toEqual([sq]);
    expect(
      pendingCapabilities([sq], { capabilities_consent: "x" } as unknown as PluginEntryDocument),
    ).toEqual([sq]);
  });
});

describe("reading grants", () => {
  it("needs the declaration and the grant for the LLM capabilities", () => {
    expect(isCapabilityGranted(sq, [sq], consented([sq], [sq]))).toBe(true);
    expect(isCapabilityGranted(sq, [], consented([sq], [sq]))).toBe(false);
    expect(isCapabilityGranted(fork, [sq, fork], consented([sq, fork], [sq]))).toBe(false);
    expect(isCapabilityGranted("llm.anything", [sq], consented([sq], ["llm.anything"]))).toBe(false);
  });

  it("reads a corrupt granted_capabilities (string, numbers, unknown ids) as not granted", () => {
    for (const corrupt of [sq, 42, [1, 2], ["llm.made_up"], { [sq]: true }, null]) {
      expect(isCapabilityGranted(sq, [sq], consented([sq], corrupt))).toBe(false);
    }
    // Readable items of a partly corrupt list still count.
    expect(isCapabilityGranted(sq, [sq], consented([sq], [7, sq, "llm.made_up"]))).toBe(true);
  });

  it("override capabilities: the legacy flag or the grant opens the gate", () => {
    const flag = { llm: { allow_model_override: true } } as PluginEntryDocument;
    const grant = { granted_capabilities: ["llm.model_override"] } as PluginEntryDocument;
    expect(isCapabilityGranted("llm.model_override", [], flag)).toBe(true);
    expect(isCapabilityGranted("llm.model_override", ["llm.model_override"], grant)).toBe(true);
    expect(isCapabilityGranted("llm.model_override", [], undefined)).toBe(false);
    expect(effectiveLlmPolicy(grant)).toEqual({ allow_model_override: true });
    expect(effectiveLlmPolicy(flag)).toEqual({ allow_model_override: true });
    expect(effectiveLlmPolicy({ llm: { allowed_models: ["a"] } } as PluginEntryDocument)).toEqual({
      allowed_models: ["a"],
    });
  });

  it("has the exact consent-screen text of docs/contract.md §7.1", () => {
    expect(CAPABILITY_TEXT[sq]).toBe(
      "Ask your agent a short question after each turn. It sees the whole session, including memory, and spends your main model's tokens.",
    );
    expect(Object.keys(CAPABILITY_TEXT)).toHaveLength(5);
  });
});

describe("writing answers", () => {
  it("stores the sorted union of grants, the declared set's hash and an ISO time", () => {
    const doc: SettingsDocument = {
      plugins: { entries: { p: { granted_capabilities: [fork, 3, "junk"] as unknown as string[] } } },
    };
    applyConsent(doc, "p", [sq, fork], validateGrant("p", [sq, fork], [sq]), NOW);
    expect(doc.plugins!.entries!.p).toEqual({
      granted_capabilities: [fork, sq],
      capabilities_consent: { hash: capabilitiesHash([fork, sq]), granted_at: "2026-11-29T10:00:00Z" },
    });
  });

  it("a decline stores the hash with nothing granted; the plugin's other keys stay", () => {
    const doc: SettingsDocument = { plugins: { entries: { p: { limits: { daily_tokens: 9 } } } } };
    applyConsent(doc, "p", [sq], validateGrant("p", [sq], []), NOW);
    expect(doc.plugins!.entries!.p).toMatchObject({ limits: { daily_tokens: 9 }, granted_capabilities: [] });
    expect(pendingCapabilities([sq], doc.plugins!.entries!.p)).toEqual([]);
  });

  it("a granted override capability writes its legacy flag too, a revoke clears both", () => {
    const doc: SettingsDocument = {};
    applyConsent(doc, "p", ["llm.task_override"], ["llm.task_override"], NOW);
    expect(doc.plugins!.entries!.p).toMatchObject({
      granted_capabilities: ["llm.task_override"],
      llm: { allow_task_override: true },
    });
    applyRevoke(doc, "p", "llm.task_override");
    expect(doc.plugins!.entries!.p).toMatchObject({
      granted_capabilities: [],
      llm: { allow_task_override: false },
    });
  });

  it("refuses a grant the plugin does not declare (any more), or an unknown id, saying what to fix", () => {
    expect(() => validateGrant("p", [sq], [fork])).toThrow(ConsentInputError);
    expect(() => validateGrant("p", [sq], [fork])).toThrow(
      /does not declare llm\.session_fork.*llm\.side_question/,
    );
    expect(() => validateGrant("p", [sq], ["llm.nope"])).toThrow(/is not a capability/);
    expect(() => applyRevoke({}, "p", "llm.nope")).toThrow(ConsentInputError);
    expect(validateGrant("p", [sq, fork], [sq, fork, sq])).toEqual([fork, sq]);
  });
});
