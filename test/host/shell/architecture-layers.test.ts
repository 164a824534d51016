// The layer order (scripts/architecture/layers.mjs) and no import cycles: the ESLint rule
// `architecture/layers` is fed files that break it, the graph's cycle finder a tree with cycles,
// and the repository itself must have neither an upward import nor a cycle.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the build scripts, without types
import { architecture } from "../../../scripts/architecture/eslint-plugin.mjs";
// @ts-expect-error: a plain ES module of the build scripts, without types
import * as graphModule from "../../../scripts/architecture/import-graph.mjs";
// @ts-expect-error: a plain ES module of the build scripts, without types
import { layers } from "../../../scripts/architecture/layers.mjs";

type Edge = { to: string; typeOnly: boolean; line: number };
type Graph = Map<string, Edge[]>;
const graph = graphModule as {
  buildGraph(root: string, options?: { files?: string[]; readText?: (f: string) => string }): Graph;
  importCycles(graph: Graph, options?: { includeTypes?: boolean }): { members: string[]; loop: string[] }[];
  upwardImports(graph: Graph): { from: string; to: string; why: string }[];
  layerOf(path: string): { name: string } | null;
};

const eslint = new ESLint({ cwd: process.cwd() });
const layerProblems = async (filePath: string, code: string): Promise<string[]> => {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === "architecture/layers").map((m) => m.message);
};

describe("the layer order (ESLint architecture/layers)", () => {
  it.each([
    [
      "electron/host/plugins/capabilities/x.ts",
      'import { runToolLoop } from "../../sessions/tool-loop.js";\n',
    ],
    // A file that is not there (yet, or any more) is placed by its path.
    [
      "electron/host/plugins/x.ts",
      'import { later } from "../sessions/not-written.js";\nexport { later };\n',
    ],
    [
      "electron/host/llm/x.ts",
      'import type { HookRegistry } from "../plugins/hook-registry.js";\nexport type H = HookRegistry;\n',
    ],
    ["electron/host/models/x.ts", 'export const f = () => import("../providers/provider-fields.js");\n'],
    ["electron/host/config/x.ts", 'export { SessionService } from "../sessions/session-service.js";\n'],
    ["electron/host/rpc/x.ts", 'import "../create-host.js";\n'],
  ])("refuses an import that points up: %s", async (file, code) => {
    const found = await layerProblems(file, code);
    expect(found.join("\n")).toMatch(/^Upward import: "\w+" \(.+\) may not import "\w+"/);
  });

  it("refuses the renderer anything but the contract, and bundled plugins anything but the SDK", async () => {
    const renderer = await layerProblems("renderer/src/x.ts", 'import "../../electron/host/events.js";\n');
    expect(renderer.join("\n")).toContain('Layer "renderer" (renderer/src/x.ts) may import only "contract"');
    const plugin = await layerProblems("plugins/tldr/x.js", 'import "../../electron/host/clock.js";\n');
    expect(plugin.join("\n")).toContain('may import only "plugin-sdk"');
    expect(await layerProblems("plugins/tldr/x.js", 'import "../sdk/types.js";\n')).toEqual([]);
  });

  it("lets a layer import its own room and the layers below", async () => {
    const code =
      'import { runToolLoop } from "./tool-loop.js";\nimport { ChatEngine } from "../llm/chat-engine.js";\n' +
      'import { HookRegistry } from "../plugins/hook-registry.js";\nexport { runToolLoop, ChatEngine, HookRegistry };\n';
    expect(await layerProblems("electron/host/sessions/x.ts", code)).toEqual([]);
    expect(
      await layerProblems(
        "renderer/src/x.ts",
        'import type { MethodName } from "../../electron/host/rpc/contract.js";\n',
      ),
    ).toEqual([]);
  });

  it("places every file of electron/, renderer/src and plugins/ in a layer, in one order", () => {
    expect(graph.layerOf("electron/host/config/config-schema.ts")?.name).toBe("contract");
    expect(graph.layerOf("electron/host/config/settings-store.ts")?.name).toBe("config");
    expect(graph.layerOf("electron/host/sessions/turns/turn-runner.ts")?.name).toBe("sessions");
    expect(graph.layerOf("electron/main.ts")?.name).toBe("shell");
    expect(graph.layerOf("test/host/x.test.ts")).toBeNull();
    const names = (layers as { name: string }[]).map((l) => l.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("import cycles", () => {
  const tree = (files: Record<string, string>) =>
    graph.buildGraph("/nowhere", { files: Object.keys(files), readText: (f) => files[f] ?? "" });

  it("finds a cycle through several files and shows one loop", () => {
    const found = graph.importCycles(
      tree({
        "electron/host/config/a.ts": 'import { b } from "./b.js";\nexport const a = b;\n',
        "electron/host/config/b.ts": 'import { c } from "./sub/c.js";\nexport const b = c;\n',
        "electron/host/config/sub/c.ts": 'import { a } from "../a.js";\nexport const c = a;\n',
        "electron/host/config/d.ts": 'import { a } from "./a.js";\nexport const d = a;\n',
      }),
    );
    expect(found).toEqual([
      {
        members: ["electron/host/config/a.ts", "electron/host/config/b.ts", "electron/host/config/sub/c.ts"],
        loop: [
          "electron/host/config/a.ts",
          "electron/host/config/b.ts",
          "electron/host/config/sub/c.ts",
          "electron/host/config/a.ts",
        ],
      },
    ]);
  });

  it("counts `import type` in a cycle unless asked for run-time cycles only", () => {
    const g = tree({
      "electron/host/llm/a.ts": 'import type { B } from "./b.js";\nexport type A = B;\n',
      "electron/host/llm/b.ts": 'import { a } from "./a.js";\nexport const b = a;\n',
    });
    expect(graph.importCycles(g)).toHaveLength(1);
    expect(graph.importCycles(g, { includeTypes: false })).toEqual([]);
  });

  it("reports a cycle through the ESLint rule on each import that closes it", async () => {
    const root = mkdtempSync(join(tmpdir(), "hermes-cycle-"));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(dirname(join(root, file)), { recursive: true });
        writeFileSync(join(root, file), text);
      };
      write("electron/host/config/a.js", 'import { b } from "./b.js";\nexport const a = () => b;\n');
      write("electron/host/config/b.js", 'import { a } from "./a.js";\nexport const b = () => a;\n');
      const lint = new ESLint({
        cwd: root,
        overrideConfigFile: true,
        overrideConfig: [{ plugins: { architecture }, rules: { "architecture/layers": "error" } }],
      });
      const results = await lint.lintFiles(["electron/host/config/*.js"]);
      const messages = results.flatMap((r) => r.messages.map((m) => m.message));
      expect(messages).toHaveLength(2);
      for (const m of messages)
        expect(m).toMatch(
          /^Import cycle: electron\/host\/config\/a\.js → electron\/host\/config\/b\.js → electron\/host\/config\/a\.js\./,
        );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("exports nothing imports (ESLint architecture/unused-exports)", () => {
  it("reports an exported value nothing imports, not one a test imports, nor types or entries", async () => {
    const root = mkdtempSync(join(tmpdir(), "hermes-unused-"));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(dirname(join(root, file)), { recursive: true });
        writeFileSync(join(root, file), text);
      };
      write(
        "electron/host/config/a.js",
        "export const used = 1;\nexport const forgotten = 2;\nexport function alsoForgotten() {}\n",
      );
      write("electron/host/config/b.js", 'import { used } from "./a.js";\nexport const entry = used;\n');
      write("electron/host/config/c.js", "export const onlyTested = 3;\n");
      write("test/c.test.js", 'import { onlyTested } from "../electron/host/config/c.js";\nonlyTested;\n');
      const lint = new ESLint({
        cwd: root,
        overrideConfigFile: true,
        overrideConfig: [{ plugins: { architecture }, rules: { "architecture/unused-exports": "error" } }],
      });
      const results = await lint.lintFiles(["electron/host/config/*.js"]);
      const messages = results.flatMap((r) =>
        r.messages.map((m) => `${r.filePath.slice(root.length + 1)}:${m.line} ${m.message.split(":")[0]}`),
      );
      expect(messages.sort()).toEqual([
        'electron/host/config/a.js:2 "forgotten" is exported but nothing imports it',
        'electron/host/config/a.js:3 "alsoForgotten" is exported but nothing imports it',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("this repository", () => {
  const repo = graph.buildGraph(process.cwd());
  it("has no import that points up the layers", () => {
    expect(graph.upwardImports(repo).map((u) => u.why)).toEqual([]);
  });
  it("has no import cycle", () => {
    expect(graph.importCycles(repo).map((c) => c.loop.join(" → "))).toEqual([]);
  });
});
