/** docs/contract.md §6.2, §6.3: the one slot registry, its key rules and exact errors, and stale pins. */
import { describe, expect, it } from "vitest";
import { defaultSettings, type Settings } from "../../../electron/host/config/config-schema.js";
import { AuxiliaryTaskRegistry } from "../../../electron/host/models/auxiliary-tasks.js";
import { isStalePin, stalePins } from "../../../electron/host/models/stale-pins.js";

function withWarnings() {
  const warnings: string[] = [];
  const registry = new AuxiliaryTaskRegistry((message) => warnings.push(message));
  return { registry, warnings };
}

describe("the slot registry", () => {
  it("lists the built-ins in the contract's order, then plugin slots sorted by key", () => {
    const { registry } = withWarnings();
    registry.register("zeta", "zz_task", {});
    registry.register("alpha", "classify", { displayName: "Classify" });
    registry.register("alpha", "mid_task", {});
    expect(registry.keys()).toEqual([
      "vision",
      "compression",
      "title_generation",
      "background_review",
      "mcp",
      "classify",
      "mid_task",
      "zz_task",
    ]);
    expect(registry.get("classify")).toMatchObject({ kind: "plugin", pluginId: "alpha", label: "Classify" });
    expect(registry.get("vision")).toMatchObject({ kind: "builtin", label: "Vision" });
  });

  it("refuses keys that break the pattern, built-in and reserved keys, and another plugin's key", () => {
    const { registry } = withWarnings();
    expect(() => registry.register("p", "Bad-Key", {})).toThrow(/must match \^\[a-z\]\[a-z0-9_\]\{0,63\}\$/);
    expect(() => registry.register("p", "9lives", {})).toThrow(/not a valid task key/);
    expect(() => registry.register("p", "compression", {})).toThrow("reserved for a built-in task");
    expect(() => registry.register("p", "monitor", {})).toThrow("reserved for a built-in task");
    registry.register("p", "mine", {});
    expect(() => registry.register("q", "mine", {})).toThrow("already registered by plugin 'p'");
  });

  it("the same plugin registering again replaces its entry", () => {
    const { registry } = withWarnings();
    registry.register("p", "mine", { displayName: "First", defaults: { timeout: 5 } });
    registry.register("p", "mine", { displayName: "Second" });
    expect(registry.get("mine")).toMatchObject({ label: "Second", defaults: {} });
    expect(registry.keys().filter((k) => k === "mine")).toHaveLength(1);
  });

  it("refuses defaults that are not a map, unknown default keys and wrong types", () => {
    const { registry } = withWarnings();
    expect(() => registry.register("p", "a", { defaults: "fast" })).toThrow("defaults must be a map");
    expect(() => registry.register("p", "a", { defaults: [1] })).toThrow("defaults must be a map");
    expect(() => registry.register("p", "a", { defaults: { speed: 1 } })).toThrow('unknown default "speed"');
    expect(() => registry.register("p", "a", { defaults: { timeout: -1 } })).toThrow("defaults.timeout");
    expect(registry.get("a")).toBeUndefined();
  });

  it("an unknown, self-referential or cycle-closing base warns and registers without inheritance", () => {
    const { registry, warnings } = withWarnings();
    registry.register("p", "a", { inheritFrom: "nowhere" });
    expect(registry.get("a")).toMatchObject({ inheritFrom: null });
    registry.register("p", "b", { inheritFrom: "b" });
    expect(registry.get("b")).toMatchObject({ inheritFrom: null });
    registry.register("p", "c", { inheritFrom: "compression" });
    registry.register("p", "d", { inheritFrom: "c" });
    // c re-registered to inherit from d would close c → d → c.
    registry.register("p", "c", { inheritFrom: "d" });
    expect(registry.get("c")).toMatchObject({ inheritFrom: null });
    expect(registry.chainOf("d")).toEqual(["d", "c"]);
    expect(warnings).toEqual([
      expect.stringContaining('"nowhere" is not a registered auxiliary task'),
      expect.stringContaining("names the task itself"),
      expect.stringContaining("would close an inheritance cycle"),
    ]);
    // The refusal reaches the user as a notice, not only the log.
    expect(registry.notices().at(-1)).toEqual({
      kind: "auxiliary_task",
      message: expect.stringMatching(
        /^Plugin 'p', auxiliary task "c": inheritFrom "d" would close an inheritance cycle/,
      ),
    });
  });

  it("a removed plugin's slots leave the registry; others stay", () => {
    const { registry } = withWarnings();
    registry.register("p", "a", {});
    registry.register("q", "b", {});
    registry.removePlugin("p");
    expect(registry.keys()).not.toContain("a");
    expect(registry.keys()).toContain("b");
    expect(registry.owns("q", "b")).toBe(true);
    expect(registry.owns("p", "b")).toBe(false);
  });
});

describe("stale pins (docs/contract.md §6.4)", () => {
  const settings = (
    block: Settings["auxiliary"][string],
    providers: Settings["providers"] = {},
  ): Settings => ({
    ...defaultSettings(),
    providers: {
      main: { name: "Main", base_url: "https://main.example/v1" },
      old: { name: "Old", base_url: "https://old.example/v1" },
      ...providers,
    },
    model: { provider: "main", model: "m" },
    auxiliary: { vision: block },
  });
  const cases: [string, Settings["auxiliary"][string], boolean][] = [
    ["a public URL", { provider: "old", model: "x", base_url: "https://api.old.example/v1" }, true],
    ["no base_url (the provider's public one)", { provider: "old", model: "x" }, true],
    ["the main provider", { provider: "main", model: "x", base_url: "https://elsewhere.example/v1" }, false],
    ["auto", { provider: "auto", model: "" }, false],
    ["loopback", { provider: "old", model: "x", base_url: "http://127.0.0.1:8080/v1" }, false],
    ["localhost", { provider: "old", model: "x", base_url: "http://localhost:11434/v1" }, false],
    ["192.168.x", { provider: "old", model: "x", base_url: "http://192.168.1.20:8000/v1" }, false],
    ["10.x", { provider: "old", model: "x", base_url: "http://10.0.0.5/v1" }, false],
    ["172.16-31.x", { provider: "old", model: "x", base_url: "http://172.20.0.5/v1" }, false],
    ["172.32.x is public", { provider: "old", model: "x", base_url: "http://172.32.0.5/v1" }, true],
    ["*.local", { provider: "old", model: "x", base_url: "http://gpu-box.local:8080/v1" }, false],
    ["[fd00::1] (IPv6 ULA)", { provider: "old", model: "x", base_url: "http://[fd00::1]:8080/v1" }, false],
    [
      "[2607:f8b0::1] (public IPv6)",
      { provider: "old", model: "x", base_url: "http://[2607:f8b0::1]/v1" },
      true,
    ],
  ];
  for (const [name, block, stale] of cases) {
    it(`${name}: ${stale ? "stale" : "not stale"}`, () => {
      expect(isStalePin(settings(block), block)).toBe(stale);
      const registry = new AuxiliaryTaskRegistry();
      expect(stalePins(settings(block), registry).map((s) => s.task)).toEqual(stale ? ["vision"] : []);
    });
  }

  it("a provider on a private endpoint is not stale without a base_url of its own", () => {
    const block = { provider: "lan", model: "x" };
    expect(
      isStalePin(settings(block, { lan: { name: "LAN", base_url: "http://192.168.0.9/v1" } }), block),
    ).toBe(false);
  });

  it("only registered slots count: a disabled plugin's block is on no surface", () => {
    const registry = new AuxiliaryTaskRegistry();
    const s: Settings = {
      ...settings({ provider: "old", model: "x" }),
      auxiliary: { gone_slot: { provider: "old", model: "x" } },
    };
    expect(stalePins(s, registry)).toEqual([]);
    registry.register("p", "gone_slot", {});
    expect(stalePins(s, registry)).toEqual([{ task: "gone_slot", provider: "old", model: "x" }]);
  });
});
