import { describe, expect, it } from "vitest";
import { defaultSettings, type Settings } from "../../../electron/host/config/config-schema.js";
import { isPinned, resolveAuxiliaryRoute } from "../../../electron/host/models/auxiliary-route.js";

const settings = (auxiliary: Settings["auxiliary"]): Settings => ({
  ...defaultSettings(),
  providers: {
    main: { name: "Main", base_url: "https://main.example/v1" },
    other: { name: "Other", base_url: "https://other.example/v1", key_env: "OTHER_KEY" },
  },
  model: { provider: "main", model: "main/model" },
  auxiliary,
});

describe("auxiliary slot routes (SPEC §6.4 step 1)", () => {
  it("follows the main model when the slot is auto, keeping the slot's timeout", () => {
    const route = resolveAuxiliaryRoute(
      "title_generation",
      settings({ title_generation: { provider: "auto", timeout: 12 } }),
    );
    expect(route).toMatchObject({ providerId: "main", model: "main/model", timeoutSeconds: 12 });
    expect(isPinned({ provider: "auto", model: "" })).toBe(false);
    expect(isPinned({ provider: "main" })).toBe(false);
  });

  it("takes a pin as a whole route: provider, model, endpoint, key source and effort", () => {
    const route = resolveAuxiliaryRoute(
      "vision",
      settings({
        vision: {
          provider: "other",
          model: "other/vl",
          base_url: "http://127.0.0.1:9/v1",
          reasoning_effort: "low",
        },
      }),
    );
    expect(route).toMatchObject({
      providerId: "other",
      model: "other/vl",
      baseURL: "http://127.0.0.1:9/v1",
      keyEnv: "OTHER_KEY",
      reasoningEffort: "low",
    });
  });

  it("a model alone pins the slot on the main provider", () => {
    const route = resolveAuxiliaryRoute(
      "compression",
      settings({ compression: { provider: "auto", model: "main/small" } }),
    );
    expect(route).toMatchObject({ providerId: "main", model: "main/small" });
  });

  it("a pin to a provider that no longer exists fails with a clear error", () => {
    expect(() =>
      resolveAuxiliaryRoute("vision", settings({ vision: { provider: "gone", model: "x" } })),
    ).toThrow(/"gone" is not configured/);
  });
});
