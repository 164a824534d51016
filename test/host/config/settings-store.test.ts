import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ManualClock } from "../../fixtures/manual-clock.js";
import { ConfigValidationError } from "../../../electron/host/config/config-errors.js";
import { defaultSettings, type Settings } from "../../../electron/host/config/config-schema.js";
import { SettingsStore } from "../../../electron/host/config/settings-store.js";
import { filesIn, makeTempHome, waitFor } from "./config-test-helpers.js";

const stores: SettingsStore[] = [];

function openStore(home: string, clock = new ManualClock()): SettingsStore {
  const store = new SettingsStore({ home, clock });
  stores.push(store);
  return store;
}

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

function configText(home: string): string {
  return fs.readFileSync(path.join(home, "config.yaml"), "utf8");
}

function refusal(action: () => void): ConfigValidationError {
  try {
    action();
  } catch (error) {
    if (error instanceof ConfigValidationError) return error;
    throw error;
  }
  throw new Error("expected the write to be refused");
}

describe("SettingsStore: round trip", () => {
  it("starts on defaults in a home that does not exist yet, without writing a file", () => {
    const home = path.join(makeTempHome(), "nested", "home");
    const store = openStore(home);
    expect(store.get()).toEqual(defaultSettings());
    expect(store.notices()).toEqual([]);
    expect(fs.existsSync(home)).toBe(true);
    expect(fs.existsSync(path.join(home, "config.yaml"))).toBe(false);
  });

  it("persists settings across two store instances as human-readable YAML", () => {
    const home = makeTempHome();
    const first = openStore(home);
    first.set("providers.openrouter", {
      name: "OpenRouter",
      base_url: "https://openrouter.ai/api/v1",
      key_env: "OPENROUTER_API_KEY",
    });
    first.set("model", { provider: "openrouter", model: "vendor/model-id" });
    first.set("display.busy_input_mode", "steer");
    first.set("auxiliary.title_generation", { provider: "auto", model: "", base_url: "", timeout: 30 });
    first.update((doc) => {
      doc.plugins = {
        enabled: ["chart-writer"],
        entries: { "chart-writer": { granted_capabilities: ["llm.side_question"] } },
      };
    });
    first.set("memory.note", "Prefers metric units.\nLives in Lisbon.");
    first.close();

    const second = openStore(home);
    const settings = second.get();
    expect(settings.model).toEqual({ provider: "openrouter", model: "vendor/model-id" });
    expect(settings.providers["openrouter"]?.key_env).toBe("OPENROUTER_API_KEY");
    expect(settings.display.busy_input_mode).toBe("steer");
    expect(settings.auxiliary["title_generation"]).toEqual({
      provider: "auto",
      model: "",
      base_url: "",
      timeout: 30,
    });
    expect(settings.plugins.enabled).toEqual(["chart-writer"]);
    expect(settings.plugins.entries["chart-writer"]?.granted_capabilities).toEqual(["llm.side_question"]);
    // Entry fields the file leaves out run at their (fail-closed) defaults.
    expect(settings.plugins.entries["chart-writer"]?.llm.allow_task_override).toBe(false);
    expect(settings.plugins.entries["chart-writer"]?.capabilities_consent).toBeNull();
    expect(settings.memory.note).toBe("Prefers metric units.\nLives in Lisbon.");

    const text = configText(home);
    expect(text).toContain("display:\n  busy_input_mode: steer\n");
    expect(text).toContain("model: vendor/model-id");
    expect(text.trimStart().startsWith("{")).toBe(false);
    expect(parse(text).display).toEqual({ busy_input_mode: "steer" });
  });

  it("hands out settings callers cannot mutate", () => {
    const store = openStore(makeTempHome());
    store.set("display.busy_input_mode", "interrupt");
    const settings = store.get() as Settings;
    expect(() => {
      settings.display.busy_input_mode = "queue";
    }).toThrow(TypeError);
    expect(() => settings.plugins.enabled.push("x")).toThrow(TypeError);
    expect(store.get().display.busy_input_mode).toBe("interrupt");
  });

  it("deletes a key, which then runs at its default", () => {
    const home = makeTempHome();
    const store = openStore(home);
    store.set("display.busy_input_mode", "steer");
    store.set("chat.system_prompt", "Be brief.");
    store.delete("display.busy_input_mode");
    expect(store.get().display.busy_input_mode).toBe("queue");
    expect(parse(configText(home))).toEqual({ display: {}, chat: { system_prompt: "Be brief." } });
  });

  it("keeps the user's comments and unknown top-level keys when it saves", () => {
    const home = makeTempHome();
    const original =
      "# my Hermes settings\nagent:\n  max_turns: 90   # a Hermes Agent key this app does not use\n" +
      "display:\n  busy_input_mode: queue  # how a message sent mid-turn behaves\n";
    fs.writeFileSync(path.join(home, "config.yaml"), original);
    const store = openStore(home);
    store.set("display.busy_input_mode", "steer");
    const text = configText(home);
    expect(text).toContain("# my Hermes settings");
    expect(text).toContain("max_turns: 90 # a Hermes Agent key this app does not use");
    expect(text).toContain("busy_input_mode: steer # how a message sent mid-turn behaves");
    expect(parse(text).agent).toEqual({ max_turns: 90 });
  });
});

describe("SettingsStore: refused writes", () => {
  it("refuses a bad value with a message naming the key, and leaves the file unchanged", () => {
    const home = makeTempHome();
    const store = openStore(home);
    store.set("display.busy_input_mode", "steer");
    const before = configText(home);

    const error = refusal(() => store.set("display.busy_input_mode", "loud"));
    expect(error.name).toBe("ConfigValidationError");
    expect(error.key).toBe("display.busy_input_mode");
    expect(error.message).toContain("display.busy_input_mode must be one of queue, steer, interrupt");
    expect(configText(home)).toBe(before);
    expect(store.get().display.busy_input_mode).toBe("steer");
  });

  it("says the allowed range of a number out of bounds, in the schema's words", () => {
    const store = openStore(makeTempHome());
    for (const heap_mb of [8, 5000]) {
      expect(refusal(() => store.set("plugins.entries.tldr.limits", { heap_mb })).message).toContain(
        "plugins.entries.tldr.limits.heap_mb must be a heap cap in MB (16 to 4096)",
      );
    }
    expect(refusal(() => store.set("plugins.entries.tldr.limits", { daily_tokens: 0 })).message).toContain(
      "plugins.entries.tldr.limits.daily_tokens must be tokens a day, input and output together",
    );
  });

  it("names the key for wrong types, unknown keys and bad ids", () => {
    const store = openStore(makeTempHome());
    expect(refusal(() => store.set("auxiliary.vision.timeout", 0)).message).toContain(
      "auxiliary.vision.timeout must be a number of seconds greater than 0",
    );
    expect(refusal(() => store.set("security.redact_secrets", "yes")).key).toBe("security.redact_secrets");
    expect(refusal(() => store.set("display.skin", "dark")).message).toContain(
      "display.skin is not a known setting",
    );
    expect(refusal(() => store.set("display.theme", "purple")).key).toBe("display.theme");
    expect(refusal(() => store.set("providers.Open Router", { name: "x", base_url: "https://x" })).key).toBe(
      "providers.Open Router",
    );
    expect(refusal(() => store.set("providers.local", { name: "Local" })).message).toContain(
      "providers.local.base_url is required",
    );
    expect(
      refusal(() => store.update((doc) => void (doc.fallback_providers = [{ provider: "local" } as never])))
        .key,
    ).toBe("fallback_providers.0.model");
    expect(refusal(() => store.set("", 1)).name).toBe("ConfigValidationError");
    expect(refusal(() => store.set("__proto__.polluted", 1)).name).toBe("ConfigValidationError");
    expect(fs.existsSync(store.path)).toBe(false);
  });

  it("never stores an API key in config.yaml", () => {
    const home = makeTempHome();
    const store = openStore(home);
    store.set("providers.openrouter", { name: "OpenRouter", base_url: "https://openrouter.ai/api/v1" });
    const before = configText(home);
    const fakeKey = "sk-test-0000000000000000";

    const attempts: (() => void)[] = [
      () => store.set("providers.openrouter.api_key", fakeKey),
      () => store.set("providers.openrouter.key", fakeKey),
      () =>
        store.set("providers.local", {
          name: "Local",
          base_url: "http://127.0.0.1:8080/v1",
          apiKey: fakeKey,
        }),
      () =>
        store.update((doc) => {
          (doc.providers!["openrouter"] as unknown as Record<string, unknown>)["profiles"] = [
            { key: fakeKey },
          ];
        }),
    ];
    for (const attempt of attempts) {
      const error = refusal(attempt);
      expect(error.key.startsWith("providers.")).toBe(true);
      expect(error.message).toContain("keychain");
      expect(error.message).not.toContain(fakeKey);
    }
    expect(configText(home)).toBe(before);
    expect(configText(home)).not.toContain("sk-test");
  });

  it("does not take a hand-written key into the effective settings, and drops it on the next save", () => {
    const home = makeTempHome();
    const fakeKey = "sk-test-1111111111111111";
    fs.writeFileSync(
      path.join(home, "config.yaml"),
      `providers:\n  openrouter:\n    name: OpenRouter\n    base_url: https://openrouter.ai/api/v1\n    api_key: ${fakeKey}\n`,
    );
    const store = openStore(home);
    expect(store.get().providers["openrouter"]).toEqual({
      name: "OpenRouter",
      base_url: "https://openrouter.ai/api/v1",
    });
    const [notice] = store.notices();
    expect(notice?.kind).toBe("config_invalid");
    expect(notice?.message).toContain("providers.openrouter.api_key");
    expect(notice?.message).not.toContain(fakeKey);

    store.set("display.busy_input_mode", "steer");
    expect(configText(home)).not.toContain(fakeKey);
  });
});

describe("SettingsStore: a file that does not parse", () => {
  it("is moved aside with its original bytes, the store starts on defaults and says so", () => {
    const home = makeTempHome();
    const broken = "model: {provider: openrouter\ndisplay:\n  busy_input_mode: steer\n";
    fs.writeFileSync(path.join(home, "config.yaml"), broken);
    const store = openStore(home, new ManualClock(Date.UTC(2026, 10, 29, 10, 0, 0)));

    expect(store.get()).toEqual(defaultSettings());
    expect(filesIn(home, "config.yaml.corrupt-")).toEqual(["config.yaml.corrupt-2026-11-29T10-00-00-000Z"]);
    const aside = path.join(home, "config.yaml.corrupt-2026-11-29T10-00-00-000Z");
    expect(fs.readFileSync(aside, "utf8")).toBe(broken);
    expect(fs.existsSync(path.join(home, "config.yaml"))).toBe(false);

    const notices = store.notices();
    expect(notices).toHaveLength(1);
    expect(notices[0]?.kind).toBe("config_corrupt");
    expect(notices[0]?.message).toContain(path.join(home, "config.yaml"));
    expect(notices[0]?.message).toContain(aside);
    expect(notices[0]?.message).toMatch(/at line \d+, column \d+/);

    // Saving works and does not touch the moved-aside file.
    store.set("display.busy_input_mode", "interrupt");
    expect(fs.readFileSync(aside, "utf8")).toBe(broken);
    expect(openStore(home).get().display.busy_input_mode).toBe("interrupt");
  });

  it("treats a document that is not a mapping as corrupt", () => {
    const home = makeTempHome();
    fs.writeFileSync(path.join(home, "config.yaml"), "- model\n- display\n");
    const store = openStore(home);
    expect(store.notices()[0]?.message).toContain("not a mapping");
    expect(filesIn(home, "config.yaml.corrupt-")).toHaveLength(1);
  });

  it("keeps two corrupt files apart when they are moved in the same millisecond", () => {
    const home = makeTempHome();
    const clock = new ManualClock();
    fs.writeFileSync(path.join(home, "config.yaml"), "a: [\n");
    openStore(home, clock).close();
    fs.writeFileSync(path.join(home, "config.yaml"), "b: {\n");
    openStore(home, clock);
    const aside = filesIn(home, "config.yaml.corrupt-").sort();
    expect(aside).toHaveLength(2);
    expect(aside.map((name) => fs.readFileSync(path.join(home, name), "utf8")).sort()).toEqual([
      "a: [\n",
      "b: {\n",
    ]);
  });
});

describe("SettingsStore: a file that breaks the schema", () => {
  it("is kept, runs the offending key at its default, names it, and is backed up on the next save", () => {
    const home = makeTempHome();
    const original =
      "# hand-written\nmodel: {provider: local, model: qwen3-8b}\ndisplay:\n  busy_input_mode: loud\n" +
      "auxiliary:\n  vision: {provider: auto, timeout: -5}\n";
    fs.writeFileSync(path.join(home, "config.yaml"), original);
    const store = openStore(home, new ManualClock(Date.UTC(2026, 10, 29, 10, 0, 0)));

    const settings = store.get();
    expect(settings.display.busy_input_mode).toBe("queue");
    expect(settings.model).toEqual({ provider: "local", model: "qwen3-8b" });
    expect(settings.auxiliary["vision"]).toEqual({ provider: "auto" });
    expect(configText(home)).toBe(original);

    const notices = store.notices();
    expect(notices.map((notice) => notice.kind)).toEqual(["config_invalid"]);
    expect(notices[0]?.message).toContain(path.join(home, "config.yaml"));
    expect(notices[0]?.message).toContain("display.busy_input_mode must be one of queue, steer, interrupt");
    expect(notices[0]?.message).toContain("auxiliary.vision.timeout");

    store.set("chat.system_prompt", "Be brief.");
    expect(filesIn(home, "config.yaml.bak-")).toEqual(["config.yaml.bak-2026-11-29T10-00-00-000Z"]);
    expect(fs.readFileSync(path.join(home, "config.yaml.bak-2026-11-29T10-00-00-000Z"), "utf8")).toBe(
      original,
    );

    const repaired = parse(configText(home));
    expect(repaired.display).toEqual({});
    expect(repaired.auxiliary).toEqual({ vision: { provider: "auto" } });
    expect(repaired.chat).toEqual({ system_prompt: "Be brief." });
    expect(configText(home)).toContain("# hand-written");
    expect(store.notices()).toEqual([]);

    // Only the first save after the problem makes a backup.
    store.set("chat.system_prompt", "Be briefer.");
    expect(filesIn(home, "config.yaml.bak-")).toHaveLength(1);
  });
});

describe("SettingsStore: hand edits while running", () => {
  it("sees a hand edit on the next get() and tells listeners", async () => {
    const home = makeTempHome();
    const store = openStore(home);
    store.set("display.busy_input_mode", "queue");
    const seen: string[] = [];
    store.onChange((settings) => seen.push(settings.display.busy_input_mode));

    fs.writeFileSync(store.path, "display:\n  busy_input_mode: steer\n");
    expect(store.get().display.busy_input_mode).toBe("steer");
    await waitFor("onChange after the hand edit", () => seen.includes("steer"));

    // A second edit, through an atomic rename as editors do.
    fs.writeFileSync(`${store.path}.swp`, "display:\n  busy_input_mode: interrupt\n");
    fs.renameSync(`${store.path}.swp`, store.path);
    await waitFor("onChange after the rename", () => seen.includes("interrupt"));
    expect(store.get().display.busy_input_mode).toBe("interrupt");
  });

  it("watched() sees its own writes at once, and a hand edit once the watcher tells of it", async () => {
    const home = makeTempHome();
    const store = openStore(home);
    store.set("display.busy_input_mode", "queue");
    expect(store.watched().display.busy_input_mode).toBe("queue");

    fs.writeFileSync(store.path, "display:\n  busy_input_mode: steer\n");
    // Until the watcher's event arrives it has not looked (a turn's request pays no file check).
    expect(store.watched().display.busy_input_mode).toBe("queue");
    await waitFor(
      "watched() to see the hand edit",
      () => store.watched().display.busy_input_mode === "steer",
    );

    // Through an atomic rename, as editors save.
    fs.writeFileSync(`${store.path}.swp`, "display:\n  busy_input_mode: interrupt\n");
    fs.renameSync(`${store.path}.swp`, store.path);
    await waitFor(
      "watched() to see the rename",
      () => store.watched().display.busy_input_mode === "interrupt",
    );
    // And it keeps what it saw: no look at the file until the next event.
    expect(store.watched()).toBe(store.watched());
    expect(store.watched().display.busy_input_mode).toBe("interrupt");
  });

  it("fires onChange once for its own write, with the new settings", () => {
    const store = openStore(makeTempHome());
    const seen: string[] = [];
    const unsubscribe = store.onChange((settings) => seen.push(settings.chat.system_prompt));
    store.set("chat.system_prompt", "Hello");
    store.set("chat.system_prompt", "Hello");
    unsubscribe();
    store.set("chat.system_prompt", "Bye");
    expect(seen).toEqual(["Hello"]);
  });

  it("reads policies fresh at each use", () => {
    const home = makeTempHome();
    const store = openStore(home);
    store.set("plugins.entries.chart-writer.llm.allow_model_override", true);
    expect(store.get().plugins.entries["chart-writer"]?.llm.allow_model_override).toBe(true);
    fs.writeFileSync(
      store.path,
      "plugins:\n  entries:\n    chart-writer:\n      llm: {allow_model_override: false}\n",
    );
    expect(store.get().plugins.entries["chart-writer"]?.llm.allow_model_override).toBe(false);
  });

  it("runs on defaults while a hand edit does not parse, and recovers when it is fixed", async () => {
    const home = makeTempHome();
    const store = openStore(home, new ManualClock(Date.UTC(2026, 10, 29, 10, 0, 0)));
    store.set("plugins.entries.chart-writer.granted_capabilities", ["llm.side_question"]);
    const notices: string[][] = [];
    store.onChange((_settings, current) => notices.push(current.map((n) => n.kind)));

    fs.writeFileSync(store.path, "plugins: [unclosed\n");
    // Grants fail closed while the file is unreadable; the file itself is left for the user.
    expect(store.get().plugins.entries).toEqual({});
    expect(store.notices().map((n) => n.kind)).toEqual(["config_corrupt"]);
    expect(configText(home)).toBe("plugins: [unclosed\n");
    await waitFor("the corrupt notice to reach listeners", () =>
      notices.some((n) => n.includes("config_corrupt")),
    );

    fs.writeFileSync(store.path, "display: {busy_input_mode: steer}\n");
    expect(store.get().display.busy_input_mode).toBe("steer");
    expect(store.notices()).toEqual([]);
  });

  it("moves a file that broke while running aside before saving over it", () => {
    const home = makeTempHome();
    const store = openStore(home, new ManualClock(Date.UTC(2026, 10, 29, 10, 0, 0)));
    store.set("chat.system_prompt", "Keep me");
    fs.writeFileSync(store.path, "chat: {system_prompt: Keep me\n");
    store.set("display.busy_input_mode", "steer");
    const aside = filesIn(home, "config.yaml.corrupt-");
    expect(aside).toEqual(["config.yaml.corrupt-2026-11-29T10-00-00-000Z"]);
    expect(fs.readFileSync(path.join(home, aside[0]!), "utf8")).toBe("chat: {system_prompt: Keep me\n");
    expect(parse(configText(home))).toEqual({ display: { busy_input_mode: "steer" } });
    expect(store.notices().map((n) => n.kind)).toEqual(["config_corrupt"]);
    expect(store.notices()[0]?.message).toContain(aside[0]);
  });
});
