/** docs/contract.md §6.4: the resolution table — pin / follow / defaults / main × grant × chains of two. */
import { describe, expect, it } from "vitest";
import {
  defaultPluginLlmPolicy,
  defaultSettings,
  type Settings,
} from "../../../electron/host/config/config-schema.js";
import {
  followBaseBlocked,
  isPinned,
  resolveAuxiliaryRoute,
  resolveSlot,
  routeOf,
} from "../../../electron/host/models/auxiliary-route.js";
import { AuxiliaryTaskRegistry } from "../../../electron/host/models/auxiliary-tasks.js";

const settingsWith = (auxiliary: Settings["auxiliary"], granted: string[] = []): Settings => ({
  ...defaultSettings(),
  providers: {
    main: { name: "Main", base_url: "https://main.example/v1" },
    other: { name: "Other", base_url: "https://other.example/v1", key_env: "OTHER_KEY" },
    local: { name: "Local", base_url: "http://127.0.0.1:8080/v1" },
  },
  model: { provider: "main", model: "main/model" },
  auxiliary,
  plugins: {
    enabled: [],
    disabled: [],
    entries: Object.fromEntries(
      granted.map((id) => [
        id,
        {
          llm: { ...defaultPluginLlmPolicy(), allow_task_override: true },
          granted_capabilities: [],
          capabilities_consent: null,
        },
      ]),
    ),
  },
});

const compressionPin = { compression: { provider: "other", model: "other/sum", timeout: 10 } };

function registry(setup: (r: AuxiliaryTaskRegistry) => void = () => undefined): AuxiliaryTaskRegistry {
  const r = new AuxiliaryTaskRegistry();
  setup(r);
  return r;
}

const summary = (task: string, settings: Settings, r: AuxiliaryTaskRegistry) => {
  const s = resolveSlot(task, settings, r);
  return {
    source: s.source,
    provider: s.choice.provider,
    model: s.choice.model,
    chain: s.chain,
    timeout: s.timeoutSeconds,
  };
};

describe("built-in slots", () => {
  it("follow the main model when auto, keeping the slot's timeout (default 30 s)", () => {
    const r = registry();
    expect(summary("title_generation", settingsWith({}), r)).toMatchObject({
      source: "main",
      provider: "main",
      model: "main/model",
      timeout: 30,
    });
    const route = resolveAuxiliaryRoute(
      "title_generation",
      settingsWith({ title_generation: { provider: "auto", timeout: 12 } }),
      r,
    );
    expect(route).toMatchObject({ providerId: "main", model: "main/model", timeoutSeconds: 12 });
    expect(isPinned({ provider: "auto", model: "" })).toBe(false);
    expect(isPinned({ provider: "main" })).toBe(false);
  });

  it("take a pin as a whole route: provider, model, endpoint, key source and effort", () => {
    const route = resolveAuxiliaryRoute(
      "vision",
      settingsWith({
        vision: {
          provider: "other",
          model: "other/vl",
          base_url: "http://127.0.0.1:9/v1",
          reasoning_effort: "low",
        },
      }),
      registry(),
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
    expect(
      summary(
        "compression",
        settingsWith({ compression: { provider: "auto", model: "main/small" } }),
        registry(),
      ),
    ).toMatchObject({
      source: "pin",
      provider: "main",
      model: "main/small",
    });
  });

  it("a pin to a provider that no longer exists is broken, says what to do, and fails clearly when called", () => {
    const settings = settingsWith({ vision: { provider: "gone", model: "x" } });
    const resolution = resolveSlot("vision", settings, registry());
    expect(resolution.broken).toMatch(/"gone" no longer exists.*Settings → Providers/);
    expect(() => routeOf(settings, resolution)).toThrow(/"gone" is not configured/);
  });

  it("an unknown task is refused", () => {
    expect(() => resolveSlot("nope", settingsWith({}), registry())).toThrow(/unknown auxiliary task "nope"/);
  });
});

describe("plugin slot inheriting a built-in (docs/contract.md §6.4 step 2)", () => {
  const r = registry((x) =>
    x.register("p", "sorter", { inheritFrom: "compression", defaults: { timeout: 90 } }),
  );

  it("pin: the slot's own pin wins with or without the grant", () => {
    for (const granted of [[], ["p"]]) {
      const s = settingsWith({ ...compressionPin, sorter: { provider: "local", model: "l/1" } }, granted);
      expect(summary("sorter", s, r)).toMatchObject({
        source: "pin",
        provider: "local",
        model: "l/1",
        chain: ["sorter"],
      });
    }
  });

  it("follow with the grant: the built-in's route carries over", () => {
    expect(summary("sorter", settingsWith(compressionPin, ["p"]), r)).toMatchObject({
      source: "inherited",
      provider: "other",
      model: "other/sum",
      chain: ["sorter", "compression"],
      timeout: 90,
    });
  });

  it("follow without the grant: only non-route settings carry over; the route is the main model", () => {
    const noDefaults = registry((x) => x.register("p", "sorter", { inheritFrom: "compression" }));
    expect(summary("sorter", settingsWith(compressionPin), noDefaults)).toMatchObject({
      source: "main",
      provider: "main",
      model: "main/model",
      timeout: 10, // compression's timeout: the base's non-route setting
    });
  });

  it("defaults: a defaults route is used when the base's route may not carry over", () => {
    const withRoute = registry((x) =>
      x.register("p", "sorter", {
        inheritFrom: "compression",
        defaults: { provider: "local", model: "l/def" },
      }),
    );
    expect(summary("sorter", settingsWith(compressionPin), withRoute)).toMatchObject({
      source: "defaults",
      provider: "local",
      model: "l/def",
    });
    // With the grant the inherited route comes first (step 2 before step 3).
    expect(summary("sorter", settingsWith(compressionPin, ["p"]), withRoute)).toMatchObject({
      source: "inherited",
      provider: "other",
    });
    // A base nobody pinned passes the slot on to its defaults.
    expect(summary("sorter", settingsWith({}, ["p"]), withRoute)).toMatchObject({
      source: "defaults",
      provider: "local",
    });
  });

  it("main: nothing pinned anywhere and no defaults route", () => {
    for (const granted of [[], ["p"]]) {
      expect(summary("sorter", settingsWith({}, granted), r)).toMatchObject({
        source: "main",
        provider: "main",
        timeout: 90,
      });
    }
  });

  it("non-route settings: base, then plugin defaults, then the user's block", () => {
    expect(summary("sorter", settingsWith(compressionPin), r).timeout).toBe(90);
    expect(summary("sorter", settingsWith({ ...compressionPin, sorter: { timeout: 7 } }), r).timeout).toBe(7);
    const s = resolveSlot(
      "sorter",
      settingsWith({ compression: { reasoning_effort: "high" }, sorter: { extra_body: { k: 1 } } }),
      r,
    );
    expect(s).toMatchObject({ reasoningEffort: "high", extraBody: { k: 1 } });
  });
});

describe("chains of two", () => {
  // b (plugin q) → a (plugin p) → compression (built-in)
  const r = registry((x) => {
    x.register("p", "a_slot", { inheritFrom: "compression" });
    x.register("q", "b_slot", { inheritFrom: "a_slot" });
  });

  it("a built-in route through a chain needs the grant of every plugin on the way", () => {
    expect(summary("b_slot", settingsWith(compressionPin, ["p", "q"]), r)).toMatchObject({
      source: "inherited",
      provider: "other",
      chain: ["b_slot", "a_slot", "compression"],
    });
    expect(summary("b_slot", settingsWith(compressionPin, ["p"]), r)).toMatchObject({
      source: "main",
      provider: "main",
    });
    expect(summary("b_slot", settingsWith(compressionPin, ["q"]), r)).toMatchObject({
      source: "main",
      provider: "main",
    });
    expect(summary("b_slot", settingsWith(compressionPin, []), r)).toMatchObject({
      source: "main",
      timeout: 10,
    });
  });

  it("a route pinned on a plugin slot carries over without any grant", () => {
    const s = settingsWith({ a_slot: { provider: "local", model: "l/a" } });
    expect(summary("b_slot", s, r)).toMatchObject({
      source: "inherited",
      provider: "local",
      model: "l/a",
      chain: ["b_slot", "a_slot"],
    });
  });

  it("a pin on the last slot of the chain wins over everything above it", () => {
    const s = settingsWith(
      {
        ...compressionPin,
        a_slot: { provider: "local", model: "l/a" },
        b_slot: { provider: "main", model: "m/b" },
      },
      ["p", "q"],
    );
    expect(summary("b_slot", s, r)).toMatchObject({
      source: "pin",
      provider: "main",
      model: "m/b",
      chain: ["b_slot"],
    });
  });

  it("a config edit applies to the next resolution (nothing cached)", () => {
    expect(summary("b_slot", settingsWith({}), r).provider).toBe("main");
    expect(summary("b_slot", settingsWith({ a_slot: { provider: "other", model: "o" } }), r).provider).toBe(
      "other",
    );
  });
});

describe("Follow <Base> availability (docs/contract.md §6.4 step 2, §6.5)", () => {
  const r = registry((x) => {
    x.register("p", "sorter", { inheritFrom: "compression" });
    x.register("q", "deep", { inheritFrom: "sorter", defaults: { provider: "local", model: "l/def" } });
    x.register("q", "free", {});
  });

  it("is blocked, with why and what to do, when the base is a built-in and the plugin lacks the grant", () => {
    const why = followBaseBlocked("sorter", settingsWith(compressionPin), r);
    expect(why).toContain("Compression is a built-in task's route");
    expect(why).toContain('plugin "p" does not hold the llm.task_override capability');
    expect(why).toContain("Reset runs this task on the main model.");
    // Through a chain, and naming the plugin defaults the slot would fall back to.
    expect(followBaseBlocked("deep", settingsWith({}), r)).toContain("its plugin's default route");
  });

  it("is open with the grant, and does not apply to a slot without a base or a built-in", () => {
    expect(followBaseBlocked("sorter", settingsWith(compressionPin, ["p"]), r)).toBeNull();
    expect(followBaseBlocked("free", settingsWith({}), r)).toBeNull();
    expect(followBaseBlocked("compression", settingsWith({}), r)).toBeNull();
  });
});
