import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { discoverPlugins } from "../../../electron/host/plugins/catalog/discovery.js";
import { parseManifest } from "../../../electron/host/plugins/catalog/manifest.js";
import { tempHome } from "../support/temp-home.js";
import { writePlugin } from "./plugin-rig.js";

const dir = "/tmp/plugin-x";
const base = "version: 1.0.0\ndescription: d\nmain: index.js\n";

describe("plugin.yaml", () => {
  it("accepts a full manifest", () => {
    const result = parseManifest(
      `name: chart-writer\n${base}capabilities: [llm.side_question]\npages:\n  - {id: charts, title: Charts, entry: page/index.html}\n`,
      dir,
    );
    expect(result).toEqual({
      ok: true,
      warnings: [],
      manifest: {
        name: "chart-writer",
        version: "1.0.0",
        description: "d",
        main: "index.js",
        capabilities: ["llm.side_question"],
        pages: [{ id: "charts", title: "Charts", entry: "page/index.html" }],
      },
    });
  });

  it.each([
    [`name: Chart_Writer!\n${base}`, '"name" must be a plugin id'],
    [`name: ${"a".repeat(65)}\n${base}`, '"name" must be a plugin id'],
    ["name: ok\nversion: 1.0.0\n", 'needs "main"'],
    [`name: ok\nversion: 1.0.0\nmain: ../elsewhere/index.js\n`, "outside the plugin folder"],
    [`name: ok\nversion: 1.0.0\nmain: /etc/passwd\n`, "outside the plugin folder"],
    ["name: ok\nversion: [1.0\nmain: index.js\n", "not valid YAML"],
    ["- just\n- a list\n", "must be a mapping"],
  ])("refuses %j with a reason", (text, reason) => {
    const result = parseManifest(text, dir);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain(reason);
  });

  it("warns on unknown keys and unknown capabilities, and still accepts", () => {
    const result = parseManifest(
      `name: ok\n${base}homepage: x\ncapabilities: [llm.side_question, fs.write]\n`,
      dir,
    );
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      'plugin.yaml: unknown key "homepage" is ignored',
      'plugin.yaml: unknown capability "fs.write" is dropped',
    ]);
    expect(result.ok && result.manifest.capabilities).toEqual(["llm.side_question"]);
  });
});

describe("discovery", () => {
  const temps: { cleanup(): void }[] = [];
  afterEach(() => temps.splice(0).forEach((t) => t.cleanup()));
  const folder = () => {
    const t = tempHome("hermes-discovery-");
    temps.push(t);
    return t.dir;
  };

  it("the user folder wins over the bundled one, with a warning", () => {
    const bundled = folder();
    const user = folder();
    writePlugin(bundled, "tldr", { "index.js": "" });
    writePlugin(bundled, "alpha", { "index.js": "" });
    writePlugin(user, "tldr", { "index.js": "" });
    const found = discoverPlugins([
      { source: "bundled", dir: bundled },
      { source: "user", dir: user },
    ]);
    expect(found.map((p) => [p.id, p.source])).toEqual([
      ["alpha", "bundled"],
      ["tldr", "user"],
    ]);
    expect(found[1]!.warnings[0]).toContain("Replaces the bundled plugin");
  });

  it("two folders with the same id in one source: the second is refused with a reason", () => {
    const user = folder();
    writePlugin(user, "a-first", { "index.js": "" }, `name: same\n${base}`);
    writePlugin(user, "b-second", { "index.js": "" }, `name: same\n${base}`);
    const found = discoverPlugins([{ source: "user", dir: user }]);
    expect(found).toHaveLength(1);
    expect(found[0]!.dir).toBe(path.join(user, "a-first"));
    expect(found[0]!.warnings[0]).toContain(`${path.join(user, "b-second")} also declares the id "same"`);
  });

  it("lists a folder with a bad manifest as invalid under its folder name; skips folders without plugin.yaml", () => {
    const user = folder();
    writePlugin(user, "broken", {}, "name: [\n");
    fs.mkdirSync(path.join(user, "sdk"));
    const found = discoverPlugins([
      { source: "user", dir: user },
      { source: "user", dir: path.join(user, "missing") },
    ]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ id: "broken", kind: "invalid" });
  });
});
