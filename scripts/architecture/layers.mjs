/**
 * The layer order of Hermes Desktop, written once. Bottom first: a file may import files of its own
 * layer and of the layers below it, never above. A layer with `mayImport` may import only those
 * layers (and itself). The layering rule in ESLint (scripts/architecture/eslint-plugin.mjs), the
 * architecture report (scripts/architecture-report.mjs) and docs/ARCHITECTURE.md read this list.
 *
 * A file belongs to the layer whose path is the longest prefix of its own (a path ending in "/"
 * is a folder, any other an exact file). Tests, scripts and fixtures stand outside the layers.
 */
export const layers = [
  {
    name: "foundation",
    paths: ["electron/host/clock.ts", "electron/host/mime-types.ts", "electron/host/data-home.ts"],
    owns: "the clock tests control, MIME types, where the data home is",
  },
  {
    name: "plugin-sdk",
    paths: ["plugins/sdk/"],
    owns: "the types plugin authors write against (ctx, hooks, forks) and the page client",
  },
  {
    name: "contract",
    paths: ["electron/host/rpc/", "electron/host/config/config-schema.ts"],
    owns: "RPC methods and their param schemas, events, error reasons, the settings schema: shared with the renderer",
  },
  { name: "logging", paths: ["electron/host/logging/"], owns: "agent.log" },
  { name: "secrets", paths: ["electron/host/secrets/"], owns: "the vault, the keychain, redaction" },
  {
    name: "config",
    paths: ["electron/host/config/"],
    owns: "config.yaml: read, check, write, watch, import",
  },
  {
    name: "events",
    paths: ["electron/host/events.ts", "electron/host/activity-monitor.ts"],
    owns: "the event hub and what is read from it (activity)",
  },
  {
    name: "llm",
    paths: ["electron/host/llm/"],
    owns: "the request engine: routes, streaming, fallback, usage",
  },
  { name: "models", paths: ["electron/host/models/"], owns: "the main model, auxiliary slots, stale pins" },
  {
    name: "providers",
    paths: ["electron/host/providers/"],
    owns: "the providers added, local servers found",
  },
  {
    name: "plugins",
    paths: ["electron/host/plugins/"],
    owns: "the plugin runtime: workers, ctx, registries, grants",
  },
  {
    name: "sessions",
    paths: ["electron/host/sessions/"],
    owns: "chats: the store, turns, busy input, forks' home",
  },
  { name: "mcp", paths: ["electron/host/mcp/"], owns: "MCP servers and their tools in chats" },
  {
    name: "host",
    paths: ["electron/host/"],
    owns: "createHost: wires the services; error mapping; warm-up",
  },
  { name: "web", paths: ["electron/web/"], owns: "web mode: HTTP + WebSocket on 127.0.0.1" },
  { name: "shell", paths: ["electron/"], owns: "the Electron shell and the web entry" },
  {
    name: "renderer",
    paths: ["renderer/src/"],
    mayImport: ["contract"],
    owns: "the UI: it shows state and sends intents through the contract",
  },
  {
    name: "bundled-plugins",
    paths: ["plugins/"],
    mayImport: ["plugin-sdk"],
    owns: "the plugins that ship with the app: they reach it only through ctx",
  },
];

/** The folders whose files are placed in layers (and searched for cycles). */
export const layeredRoots = ["electron", "renderer/src", "plugins"];
