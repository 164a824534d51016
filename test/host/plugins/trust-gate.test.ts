import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkLlmTrust } from "../../../electron/host/plugins/llm/trust-gate.js";
import type { CompleteParams } from "../../../plugins/sdk/types.js";
import { OTHER_KEY, auditLines, startRig, type Rig } from "./plugin-rig.js";

const ID = "gated";
let rig: Rig;

beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => rig.dispose());
beforeEach(() => rig.resetLlmCalls(ID));

const call = (overrides: Partial<CompleteParams> = {}) =>
  rig.llm.complete(ID, { messages: [{ role: "user", content: "ping" }], ...overrides });

async function expectRefused(
  overrides: Partial<CompleteParams>,
  name: "PluginLlmTrustError" | "PluginLlmInputError",
  message: string,
) {
  const before = rig.requestCount();
  const error = await call(overrides).then(
    () => null,
    (e: Error) => e,
  );
  expect(error, `expected ${JSON.stringify(overrides)} to be refused`).toBeInstanceOf(Error);
  expect(error!.name).toBe(name);
  expect(error!.message).toContain(message);
  // The point of the gate: nothing reached either provider.
  expect(rig.requestCount()).toBe(before);
  expect(auditLines(rig).at(-1)).toContain("outcome=refused");
}

describe("trust gate: nothing granted (no plugins.entries block)", () => {
  it("runs on the main route without any override", async () => {
    const result = await call();
    expect(result.provider).toBe("fake");
    expect(rig.provider.requests).toHaveLength(1);
    expect((rig.provider.lastRequest()!.body as { model: string }).model).toBe("fake/chat-small");
  });

  it.each([
    [
      { provider: "other" },
      "cannot override the provider",
      "plugins.entries.gated.llm.allow_provider_override",
    ],
    [
      { model: "fake/chat-large" },
      "cannot override the model",
      "plugins.entries.gated.llm.allow_model_override",
    ],
    [{ agentId: "reviewer" }, "non-default agent id", "plugins.entries.gated.llm.allow_agent_id_override"],
    [
      { profile: "work" },
      "cannot override the auth profile",
      "plugins.entries.gated.llm.allow_profile_override",
    ],
    [{ task: "compression" }, "built-in task", "plugins.entries.gated.llm.allow_task_override"],
  ])("refuses %j with a message naming the key", async (overrides, phrase, key) => {
    await expectRefused(overrides, "PluginLlmTrustError", phrase);
    await expectRefused(overrides, "PluginLlmTrustError", key);
  });

  it("refuses a task the plugin did not register, and another plugin's or an unknown slot", async () => {
    await expectRefused(
      { task: "my_slot" },
      "PluginLlmTrustError",
      "not an auxiliary task this plugin registered",
    );
    await expectRefused({ task: "approval" }, "PluginLlmTrustError", "approval");
  });

  it("lets the defaults through: agentId main, profile default, task auto", async () => {
    const result = await call({ agentId: "main", profile: "default", task: "auto" });
    expect(result.agentId).toBe("main");
    expect(rig.provider.requests).toHaveLength(1);
  });

  it("refuses every combination on the first ungranted override", async () => {
    await expectRefused(
      { provider: "other", model: "m", agentId: "x", profile: "work" },
      "PluginLlmTrustError",
      "cannot override the provider",
    );
  });
});

describe("trust gate: each grant is independent", () => {
  it("a model grant does not grant the provider", async () => {
    rig.policy(ID, { allow_model_override: true });
    await expectRefused(
      { provider: "other", model: "other/model-a" },
      "PluginLlmTrustError",
      "cannot override the provider",
    );
    const ok = await call({ model: "fake/chat-large" });
    expect(ok.model).toBe("fake/chat-large");
  });

  it("a provider grant does not grant the model", async () => {
    rig.policy(ID, { allow_provider_override: true });
    await expectRefused(
      { provider: "other", model: "other/model-a" },
      "PluginLlmTrustError",
      "cannot override the model",
    );
    const ok = await call({ provider: "other" });
    expect(ok.provider).toBe("other");
    // Provider alone: the main model's id on the other provider.
    expect((rig.other.lastRequest()!.body as { model: string }).model).toBe("fake/chat-small");
  });

  it("provider and model granted together switch the route entirely", async () => {
    rig.policy(ID, { allow_provider_override: true, allow_model_override: true });
    const result = await call({ provider: "other", model: "other/model-a" });
    expect(result.provider).toBe("other");
    expect(result.model).toBe("other/model-a");
    expect(rig.other.lastRequest()!.headers.authorization).toBe(`Bearer ${OTHER_KEY}`);
    expect(rig.provider.requests).toHaveLength(0);
  });

  it("agent id and profile grants are separate from the route grants", async () => {
    rig.policy(ID, { allow_agent_id_override: true });
    await expectRefused({ profile: "work" }, "PluginLlmTrustError", "cannot override the auth profile");
    await expectRefused({ agentId: "reviewer" }, "PluginLlmInputError", "unknown agent id");
    rig.policy(ID, { allow_profile_override: true });
    await expectRefused({ agentId: "reviewer" }, "PluginLlmTrustError", "non-default agent id");
    // The main provider has no profile "work": unknown, before any request.
    await expectRefused({ profile: "work" }, "PluginLlmInputError", "unknown auth profile");
    rig.policy(ID, { allow_profile_override: true, allow_provider_override: true });
    const result = await call({ provider: "other", profile: "work" });
    expect(result.audit.profile).toBe("work");
    expect(rig.other.lastRequest()!.headers.authorization).toBe(`Bearer ${OTHER_KEY}`);
  });

  it("a built-in task needs allow_task_override, and then runs on the main model", async () => {
    rig.policy(ID, { allow_task_override: true });
    const result = await call({ task: "title_generation" });
    expect(result.audit.task).toBe("title_generation");
    expect(rig.provider.requests).toHaveLength(1);
    // The grant covers built-in slots only.
    await expectRefused({ task: "my_slot" }, "PluginLlmTrustError", "not an auxiliary task");
  });

  it("sees a hand edit of config.yaml on the very next call, without re-reading an unchanged file", async () => {
    rig.policy(ID, { allow_model_override: true });
    await call({ model: "fake/chat-large" });
    const file = rig.settings.path;
    const text = fs.readFileSync(file, "utf8");
    expect(text).toContain("allow_model_override: true");
    // Revoked by hand, written in place (same inode), and the call follows at once.
    fs.writeFileSync(file, text.replace("allow_model_override: true", "allow_model_override: false"));
    await expectRefused({ model: "fake/chat-large" }, "PluginLlmTrustError", "cannot override the model");
    // Granted again by an editor that replaces the file (a new inode) of the very same size.
    fs.writeFileSync(`${file}.edit`, text);
    fs.renameSync(`${file}.edit`, file);
    expect((await call({ model: "fake/chat-large" })).model).toBe("fake/chat-large");
    // An unchanged file is parsed once: its snapshot is reused call after call.
    const before = rig.settings.view().document;
    await call({ model: "fake/chat-large" });
    expect(rig.settings.view().document).toBe(before);
  });

  it("reads the policy on every call: a revoke applies to the next call", async () => {
    rig.policy(ID, { allow_model_override: true });
    await call({ model: "fake/chat-large" });
    rig.policy(ID, { allow_model_override: false });
    await expectRefused({ model: "fake/chat-large" }, "PluginLlmTrustError", "cannot override the model");
  });
});

describe("trust gate: allowlists", () => {
  it("an absent allowlist allows any value; an empty one allows none", async () => {
    rig.policy(ID, { allow_provider_override: true, allow_model_override: true });
    await call({ provider: "other", model: "anything/goes" });
    rig.policy(ID, {
      allow_provider_override: true,
      allowed_providers: [],
      allow_model_override: true,
      allowed_models: [],
    });
    await expectRefused(
      { provider: "other" },
      "PluginLlmTrustError",
      "is not in plugins.entries.gated.llm.allowed_providers",
    );
    await expectRefused(
      { model: "fake/chat-large" },
      "PluginLlmTrustError",
      "is not in plugins.entries.gated.llm.allowed_models",
    );
  });

  it('"*" allows any value', async () => {
    rig.policy(ID, {
      allow_provider_override: true,
      allowed_providers: ["*"],
      allow_model_override: true,
      allowed_models: ["*"],
    });
    const result = await call({ provider: "other", model: "other/model-a" });
    expect(result.provider).toBe("other");
  });

  it("matches case-insensitively and sends the plugin's original spelling", async () => {
    rig.policy(ID, {
      allow_provider_override: true,
      allowed_providers: ["other"],
      allow_model_override: true,
      allowed_models: ["OTHER/MODEL-B"],
    });
    const result = await call({ provider: "OTHER", model: "Other/Model-B" });
    expect(result.provider).toBe("other");
    expect((rig.other.lastRequest()!.body as { model: string }).model).toBe("Other/Model-B");
    await expectRefused(
      { provider: "other", model: "other/model-a" },
      "PluginLlmTrustError",
      "allowed_models",
    );
    await expectRefused({ provider: "fake" }, "PluginLlmTrustError", "allowed_providers");
  });

  it("an allowed but unconfigured provider is an unknown provider (input error), before any request", async () => {
    rig.policy(ID, { allow_provider_override: true, allowed_providers: ["*"] });
    await expectRefused({ provider: "nowhere" }, "PluginLlmInputError", "unknown provider");
  });

  it("the model allowlist does not unlock the model without allow_model_override", async () => {
    rig.policy(ID, { allowed_models: ["*"], allowed_providers: ["*"] });
    await expectRefused({ model: "fake/chat-large" }, "PluginLlmTrustError", "cannot override the model");
    await expectRefused({ provider: "other" }, "PluginLlmTrustError", "cannot override the provider");
  });
});

describe("trust gate matrix: every override alone and combined, against every set of grants", () => {
  type Override = "provider" | "model" | "agentId" | "profile";
  // The gate's order: the first ungranted override is the one the error names.
  const order: Override[] = ["provider", "model", "agentId", "profile"];
  const grantOf: Record<Override, string> = {
    provider: "allow_provider_override",
    model: "allow_model_override",
    agentId: "allow_agent_id_override",
    profile: "allow_profile_override",
  };
  const phraseOf: Record<Override, string> = {
    provider: "cannot override the provider",
    model: "cannot override the model",
    agentId: "non-default agent id",
    profile: "cannot override the auth profile",
  };
  // Mixed case on purpose: matched case-insensitively, sent as the plugin spelled it.
  const valueOf: Record<Override, string> = {
    provider: "Other",
    model: "Other/Model-A",
    agentId: "reviewer",
    profile: "work",
  };
  const allowlists = {
    absent: {},
    star: { allowed_providers: ["*"], allowed_models: ["*"] },
    listed: { allowed_providers: ["OTHER"], allowed_models: ["other/model-a"] },
  };
  const subsets = <T>(items: T[]): T[][] =>
    items.reduce<T[][]>((all, item) => all.concat(all.map((s) => [...s, item])), [[]]);

  it.each(subsets(order).map((set) => [set.join("+") || "(none)", set] as const))(
    "overrides %s",
    async (_label, overrides) => {
      for (const grants of subsets(order)) {
        // Allowlists only matter to the provider and model overrides.
        const routeOverride = overrides.includes("provider") || overrides.includes("model");
        for (const [listName, lists] of Object.entries(routeOverride ? allowlists : { absent: {} })) {
          rig.provider.reset();
          rig.other.reset();
          rig.policy(ID, { ...Object.fromEntries(grants.map((g) => [grantOf[g], true])), ...lists });
          const params = Object.fromEntries(overrides.map((o) => [o, valueOf[o]]));
          const where = `${JSON.stringify(params)} with grants [${grants.join(", ")}] and ${listName} allowlists`;
          const missing = order.find((o) => overrides.includes(o) && !grants.includes(o));
          const before = rig.requestCount();
          const outcome = await call(params).then(
            (result) => ({ result, error: null }),
            (error: Error) => ({ result: null, error }),
          );

          if (missing) {
            expect(outcome.error?.name, where).toBe("PluginLlmTrustError");
            expect(outcome.error?.message, where).toContain(phraseOf[missing]);
            expect(outcome.error?.message, where).toContain(`plugins.entries.${ID}.llm.${grantOf[missing]}`);
          } else if (overrides.includes("agentId")) {
            expect(outcome.error?.message, where).toContain("unknown agent id");
          } else if (overrides.includes("profile") && !overrides.includes("provider")) {
            // The main provider has no profile "work".
            expect(outcome.error?.message, where).toContain("unknown auth profile");
          } else {
            expect(outcome.error, where).toBeNull();
            const target = overrides.includes("provider") ? rig.other : rig.provider;
            expect(target.requests, where).toHaveLength(1);
            expect((target.lastRequest()!.body as { model: string }).model, where).toBe(
              overrides.includes("model") ? "Other/Model-A" : "fake/chat-small",
            );
            expect(outcome.result!.provider, where).toBe(overrides.includes("provider") ? "other" : "fake");
            expect(outcome.result!.audit.profile, where).toBe(overrides.includes("profile") ? "work" : null);
            continue;
          }
          expect(rig.requestCount(), `${where}: nothing may reach a provider`).toBe(before);
        }
      }
    },
  );
});

describe("trust gate: order and policy reads", () => {
  it("an ungranted override is a trust error even when another argument names something unknown", async () => {
    rig.policy(ID, { allow_provider_override: true });
    await expectRefused(
      { provider: "nowhere", model: "m" },
      "PluginLlmTrustError",
      "cannot override the model",
    );
    rig.policy(ID, { allow_agent_id_override: true });
    await expectRefused(
      { agentId: "reviewer", profile: "work" },
      "PluginLlmTrustError",
      "cannot override the auth profile",
    );
  });

  it("reads config.yaml on every call: a hand edit between two calls takes effect on the next", async () => {
    const file = path.join(rig.home, "config.yaml");
    rig.policy(ID, { allow_model_override: true });
    await call({ model: "fake/chat-large" });
    const text = fs.readFileSync(file, "utf8");
    expect(text).toContain("allow_model_override: true");
    fs.writeFileSync(file, text.replace("allow_model_override: true", "allow_model_override: false"));
    await expectRefused({ model: "fake/chat-large" }, "PluginLlmTrustError", "cannot override the model");
    fs.writeFileSync(file, text);
    expect((await call({ model: "fake/chat-large" })).model).toBe("fake/chat-large");
  });

  it("an allowlist that is present but not a list allows nothing (fails closed)", () => {
    const settings = rig.settings.get();
    const policy = { allow_provider_override: true, allowed_providers: "other" } as never;
    expect(() => checkLlmTrust(ID, { provider: "other" }, policy, settings)).toThrow(
      /is not in plugins\.entries\.gated\.llm\.allowed_providers/,
    );
    expect(checkLlmTrust(ID, { provider: "OTHER" }, { allow_provider_override: true }, settings)).toEqual({
      providerId: "other",
      agentId: "main",
      task: null,
    });
  });
});
