/**
 * The layering rules (docs/ARCHITECTURE.md, "Layers"). The layer order itself is written once, in
 * scripts/architecture/layers.mjs; `architecture/layers` fails on any import that points up it and
 * on any import cycle. Below it, the package rules: ESLint import restrictions per folder,
 * the way VS Code's import patterns do it. They cover package names, `node:*` built-ins and
 * relative paths, and also dynamic `import()` and `require()`, which `no-restricted-imports` does
 * not see. test/host/shell/layering.test.ts feeds each rule a violating file.
 */
import { builtinModules } from "node:module";
import { architecture } from "./scripts/architecture/eslint-plugin.mjs";
import { layeredRoots } from "./scripts/architecture/layers.mjs";

const electronOnlyInShell =
  "Only the Electron shell (electron/main.ts, electron/preload.ts, electron/window-state.ts, electron/plugin-host-utility.ts) may import electron.";
const electronPackages = [
  { name: "electron", message: electronOnlyInShell },
  { name: "electron-store", message: "electron-store imports electron: only the Electron shell may use it." },
];
const nodeBuiltins = ["node:*", ...builtinModules.filter((m) => !m.startsWith("_"))];

/** `no-restricted-imports` for static imports plus a `no-restricted-syntax` twin for dynamic ones. */
function restrict({ packages: extraPackages = [], patterns: extraPatterns = [] }) {
  const packages = [...electronPackages, ...extraPackages];
  const patterns = [{ group: ["electron/*"], message: electronOnlyInShell }, ...extraPatterns];
  // The dynamic twin covers packages and built-ins; relative paths are only ever imported statically.
  const dynamic = [...packages.map((p) => p.name), ...patterns.flatMap((p) => p.group ?? [])];
  const dynamicRegex = dynamic
    .map((n) =>
      n
        .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
        .replace(/\*/g, ".*")
        .replace(/\//g, "\\/"),
    )
    .join("|");
  const message = "This layer may not load that module (see the static import rule for why).";
  return {
    "no-restricted-imports": ["error", { paths: packages, patterns }],
    "no-restricted-syntax": [
      "error",
      { selector: `ImportExpression[source.value=/^(${dynamicRegex})$/]`, message },
      {
        selector: `CallExpression[callee.name='require'][arguments.0.value=/^(${dynamicRegex})$/]`,
        message,
      },
    ],
  };
}

export const layering = [
  {
    // The layer order and no cycles, over everything placed in a layer.
    files: layeredRoots.map((r) => `${r}/**/*.{ts,tsx,js,mjs,cjs}`),
    plugins: { architecture },
    rules: { "architecture/layers": "error", "architecture/unused-exports": "error" },
  },
  {
    // Everywhere but the shell: no electron.
    files: ["**/*.{ts,tsx,js,mjs,cjs}"],
    rules: restrict({}),
  },
  {
    // The host never reaches back into the shell or the web entry.
    files: ["electron/host/**/*.ts"],
    rules: restrict({
      patterns: [
        {
          regex: "^(\\.\\./)+(main|preload|web|window-state|plugin-host-utility)(\\.js|\\.ts)?$",
          message: "Host code must not import the Electron shell or the web entry; they import the host.",
        },
      ],
    }),
  },
  {
    // The contract is shared with the renderer: it imports nothing of the host runtime.
    files: ["electron/host/rpc/*.ts"],
    rules: restrict({
      patterns: [
        {
          // Except the settings schema, which imports nothing: it is the settings part of the contract.
          regex: "^\\.\\./(?!config/config-schema(\\.js)?$)",
          message: "The contract (electron/host/rpc) must not import host runtime code.",
        },
      ],
    }),
  },
  {
    files: ["electron/host/rpc/*/*.ts"],
    rules: restrict({
      patterns: [
        {
          regex: "^\\.\\./\\.\\./(?!config/config-schema(\\.js)?$)",
          message: "The contract (electron/host/rpc) must not import host runtime code.",
        },
      ],
    }),
  },
  {
    // The settings schema is part of the contract (the renderer's settings types derive from it),
    // so it imports nothing but what its schema is written with.
    files: ["electron/host/config/config-schema.ts"],
    rules: restrict({
      patterns: [
        {
          regex: "^(?!@sinclair/typebox$|\\.\\./rpc/schema-builders\\.js$)",
          message:
            "config-schema.ts is shared with the contract: it imports only TypeBox and the contract's schema builders.",
        },
      ],
    }),
  },
  {
    // The renderer holds no secrets and makes no model calls: it shows state and sends intents.
    files: ["renderer/src/**/*.{ts,tsx}"],
    rules: restrict({
      packages: [
        ...["openai", "keytar", "better-sqlite3", "conf", "ws"].map((name) => ({
          name,
          message: "The renderer may not use host-side packages: ask the host through the contract.",
        })),
      ],
      patterns: [
        { group: nodeBuiltins, message: "The renderer runs in a browser: no Node built-ins." },
        {
          regex: "^(\\.\\./)+electron/(?!host/rpc/)",
          message: "The renderer may import only the contract (electron/host/rpc) of the main process.",
        },
      ],
    }),
  },
  {
    // Plugins reach the app only through ctx.
    files: ["plugins/**/*.{js,mjs,ts}"],
    rules: restrict({
      packages: [
        { name: "keytar", message: "Plugins never touch the keychain: call the model through ctx.llm." },
      ],
      patterns: [
        {
          regex: "^(\\.\\./)+electron/",
          message: "Plugins must not import host internals: use ctx (types in plugins/sdk).",
        },
      ],
    }),
  },
  {
    // The shell is where electron belongs.
    files: [
      "electron/main.ts",
      "electron/preload.ts",
      "electron/window-state.ts",
      "electron/plugin-protocol.ts",
      "electron/plugin-host-utility.ts",
      "test/host/shell/**",
    ],
    rules: { "no-restricted-imports": "off", "no-restricted-syntax": "off" },
  },
];
