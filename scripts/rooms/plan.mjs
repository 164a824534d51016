/**
 * The rooms the flat folders are cut into (issue 31), as data for scripts/move-rooms.mjs: per
 * folder, what it owns and may import (its layer's rule), each room's files (by name, as they
 * stand in the folder today) and what it owns, and the files that stay at the folder's root (`stays`). A file the folder holds that
 * neither names stays where it is too, and the script lists it.
 * The READMEs are written from this, with what each room imports of its siblings (read from the
 * code at the move) and each file's first line.
 */
export const plan = [
  {
    folder: "electron/host/sessions",
    stays: [
      "session-service.ts",
      "session-rpc.ts",
      "session-overrides.ts",
      "session-store.ts",
      "session-store-core.ts",
      "message-edits.ts",
    ],
    owns: "Chats: the SQLite store and what keeps it safe, turns and their agent loop, what a message does when it arrives, background work, search and export. `session-service.ts` is the one object the host talks to; `session-rpc.ts` its RPC handlers.",
    mayImport:
      "Any room below sessions in scripts/architecture/layers.mjs (llm, models, plugins, config, events, …); never mcp or createHost (MCP plugs in through `turns/external-tools.ts`).",
    rooms: {
      store: {
        owns: "The SQLite store's parts: schema and migrations, the session, message and chunk tables, message keys, the text index's word list, the pending log of messages in flight, usage, the shapes it reads and writes and its errors. `../session-store.ts` puts them together with search.",
        files: [
          "session-store-error.ts",
          "store-file.ts",
          "session-errors.ts",
          "session-table.ts",
          "session-snapshot.ts",
          "message-table.ts",
          "message-chunks.ts",
          "message-key.ts",
          "migrations.ts",
          "open-database.ts",
          "pending-log.ts",
          "logged-messages.ts",
          "usage-ledger.ts",
          "search-terms.ts",
          "markdown-plain.ts",
          "types.ts",
        ],
      },
      recovery: {
        owns: "A store that survives disks: opening without taking the host down, damage found before writing, salvage into a fresh store, daily and pre-migration backups.",
        files: [
          "store-handle.ts",
          "store-damage.ts",
          "store-recovery.ts",
          "store-salvage.ts",
          "store-backups.ts",
        ],
      },
      search: {
        owns: "`session.search` on the FTS5 indexes: the query, matching messages newest first, snippets, the word list for prefixes, the page-cache prewarm.",
        files: [
          "session-search.ts",
          "search-prewarm.ts",
          "search-snippet.ts",
          "fts-query.ts",
          "message-hits.ts",
        ],
      },
      export: {
        owns: "A chat as a file: Markdown and JSON export, JSON import.",
        files: ["chat-export.ts", "chat-files.ts"],
      },
      turns: {
        owns: "One turn end to end: the runner, the agent loop on the shared tool loop, tool dispatch (plugins' and MCP's tools), the request built and streamed, the transcript it writes, compaction, attached images and their descriptions, the title after the first exchange.",
        files: [
          "turn-runner.ts",
          "turn-types.ts",
          "agent-loop.ts",
          "tool-loop.ts",
          "tool-dispatch.ts",
          "external-tools.ts",
          "stream-step.ts",
          "request-builder.ts",
          "delta-writer.ts",
          "transcript.ts",
          "announced-message.ts",
          "compaction.ts",
          "image-description.ts",
          "title-generator.ts",
        ],
      },
      input: {
        owns: "What a message does when it arrives: busy input (queue, steer, interrupt), slash commands and plugins' chat commands, the wait in front of an injected turn.",
        files: [
          "busy-input.ts",
          "slash-command.ts",
          "chat-command.ts",
          "image-attachments.ts",
          "injected-turn-wait.ts",
        ],
      },
      background: {
        owns: "Work a session runs after a turn: the registry forks and the review join (a person's next turn cancels it), the app's background review.",
        files: ["background-work.ts", "background-review.ts"],
      },
    },
  },
  {
    folder: "electron/host/plugins",
    stays: [],
    owns: "The plugin runtime: which plugins there are, their workers in the plugin host, `ctx` on both sides of the boundary, the registries their register calls fill, `ctx.llm` behind the trust gate, grants, pages, idle tasks.",
    mayImport:
      "Any room below plugins in scripts/architecture/layers.mjs (llm, models, providers, config, events, plugins/sdk, …); never sessions or mcp: what a fork needs of the chats is declared in `capabilities/fork-loop.ts` and passed in.",
    rooms: {
      catalog: {
        owns: "Which plugins there are: discovery in the bundled and user folders, `plugin.yaml`, the main module's check, one record each.",
        files: ["discovery.ts", "manifest.ts", "loader.ts", "plugin-catalog.ts", "plugin-record.ts"],
      },
      manager: {
        owns: "The runtime's owner and its parts: enabling and disabling in line with settings, one worker each, the `plugins.*` handlers and views, ctx.state, ctx.injectMessage's arguments.",
        files: [
          "plugin-manager.ts",
          "plugin-manager-options.ts",
          "plugin-reconciler.ts",
          "plugin-workers.ts",
          "plugin-view.ts",
          "plugin-rpc-handlers.ts",
          "plugin-state.ts",
          "inject-message.ts",
        ],
      },
      registries: {
        owns: "What plugins register: hooks (and how they fire), tools, slash commands, each name owned by one plugin.",
        files: [
          "hook-registry.ts",
          "hook-types.ts",
          "tool-registry.ts",
          "command-registry.ts",
          "plugin-owned-registry.ts",
        ],
      },
      llm: {
        owns: "`ctx.llm`: argument checks, the fail-closed trust gate, structured output and its JSON reading, the audit line.",
        files: [
          "plugin-llm.ts",
          "llm-call-checks.ts",
          "llm-errors.ts",
          "trust-gate.ts",
          "structured-request.ts",
          "json-reply.ts",
          "plugin-audit.ts",
        ],
      },
      budgets: {
        owns: "Per-plugin daily counters (tokens, calls), where they live between runs, and the live figures on the Plugins page.",
        files: ["plugin-budget.ts", "budget-file.ts", "runtime-counter-events.ts"],
      },
      capabilities: {
        owns: "Grants and consent, the side-question lease and ctx.sideQuestion, ctx.forkSession.",
        files: ["capabilities.ts", "plugin-capability-queries.ts"],
      },
    },
  },
  {
    folder: "renderer/src/chat",
    stays: [
      "chat-screen.tsx",
      "chat-view.tsx",
      "chat-model-picker.tsx",
      "export-menu.tsx",
      "system-prompt-button.tsx",
      "usage-popover.tsx",
      "first-run-offers.tsx",
      "welcome.tsx",
    ],
    owns: "The conversation screen: the chat and its header, the transcript, the composer, the session list, cards plugins and the app put in a chat, Markdown.",
    mayImport: "renderer/src/{api,stores,ui} and the contract; chat/ is not imported by stores/ or api/.",
    rooms: {
      markdown: {
        owns: "A reply's Markdown: parsed block by block, code highlighting, math and diagrams loaded when a reply needs them.",
        files: [
          "markdown.tsx",
          "markdown-blocks.ts",
          "markdown-parse.tsx",
          "lazy-markdown.tsx",
          "code-block.tsx",
          "open-fence.ts",
          "math-plugins.ts",
          "katex-styles.ts",
          "mermaid-diagram.tsx",
        ],
      },
      transcript: {
        owns: "The transcript: message rows, a person's message, images, marks, tool calls, the compaction marker, following the output, announcing replies to screen readers.",
        files: [
          "transcript.tsx",
          "message-row.tsx",
          "user-message.tsx",
          "message-images.tsx",
          "message-marks.tsx",
          "tool-call.tsx",
          "compaction-marker.tsx",
          "reply-announcer.tsx",
          "reply-link.tsx",
          "copy-button.tsx",
          "follow-output.ts",
          "scroll-to-message.ts",
        ],
      },
      cards: {
        owns: "Cards in a chat from the app and plugins: Memory proposals, action items, the next-prompt chip.",
        files: ["memory-proposal.tsx", "action-items-card.tsx", "card-error.tsx", "next-prompt-chip.tsx"],
      },
      composer: {
        owns: "The message box: sending, slash commands, attaching images.",
        files: ["composer.tsx", "slash-menu.tsx", "image-attach-controls.tsx", "image-attachments.ts"],
      },
      sidebar: {
        owns: "The list of chats: rows (rendered as they come in reach), search, undo after a delete.",
        files: ["session-sidebar.tsx", "session-row.tsx", "rows-in-reach.ts", "undo-toast.tsx"],
      },
    },
  },
  {
    folder: "renderer/src/stores",
    stays: [
      "app-stores.ts",
      "stores-context.tsx",
      "event-topics.ts",
      "host-store.ts",
      "navigation-store.ts",
      "app-route.ts",
      "route-sync.ts",
      "loadable.ts",
    ],
    owns: "The UI's state: one zustand store per concern, fed by calls and events of the contract.",
    mayImport: "renderer/src/api and the contract; never components.",
    rooms: {
      chat: {
        owns: "A chat's state: the transcript (paced deltas, streamed text), the composer, the session list, the chat's model and settings, plugin cards' data.",
        files: [
          "chat-context.ts",
          "chat-model.ts",
          "chat-settings-store.ts",
          "chat-stores.ts",
          "composer-store.ts",
          "transcript-store.ts",
          "streamed-text.ts",
          "frame-batcher.ts",
          "session-list-store.ts",
          "last-chat.ts",
          "next-prompt-store.ts",
          "action-items-store.ts",
        ],
      },
      settings: {
        owns: "Settings' state: providers, the main model and auxiliary slots, backups, first-run setup.",
        files: [
          "providers-store.ts",
          "main-model-store.ts",
          "model-settings-store.ts",
          "auxiliary-store.ts",
          "backups-store.ts",
          "setup-store.ts",
        ],
      },
      mcp: {
        owns: "MCP's state: servers, their catalog (resources, prompts), the requests waiting on the person.",
        files: ["mcp-servers-store.ts", "mcp-catalog-store.ts", "mcp-requests-store.ts", "mcp-wiring.ts"],
      },
      plugins: {
        owns: "Plugins' state: the list, consent, the runtime's figures.",
        files: ["plugins-store.ts", "plugin-consent-slice.ts", "plugin-runtime-slice.ts"],
      },
    },
  },
  {
    folder: "renderer/src/settings",
    stays: [
      "settings-view.tsx",
      "settings-page.tsx",
      "settings-page-header.tsx",
      "settings-list.tsx",
      "general-page.tsx",
      "appearance-page.tsx",
      "hermes-import-panel.tsx",
    ],
    owns: "The Settings screen and its pages.",
    mayImport: "renderer/src/{api,stores,ui} and the contract.",
    rooms: {
      providers: {
        owns: "Settings → Providers: the list, the form and its dialog, presets, local servers found.",
        files: [
          "providers-page.tsx",
          "provider-row.tsx",
          "provider-dialog.tsx",
          "provider-form.tsx",
          "provider-form-model.ts",
          "remove-provider-dialog.tsx",
          "preset-picker.tsx",
          "local-servers-panel.tsx",
        ],
      },
      models: {
        owns: "Settings → Models: the main model, the model picker, per-model settings.",
        files: ["models-page.tsx", "main-model-panel.tsx", "model-combobox.tsx", "model-settings-panel.tsx"],
      },
      chat: {
        owns: "Settings → Chat and Memory: busy input, restore from backup, the Memory note and its review.",
        files: [
          "chat-settings-page.tsx",
          "backup-restore-card.tsx",
          "memory-page.tsx",
          "memory-review-setting.tsx",
        ],
      },
    },
  },
  {
    folder: "renderer/src/ui",
    stays: [
      "button.tsx",
      "icon-button.tsx",
      "dialog.tsx",
      "dialog-form.tsx",
      "field.tsx",
      "switch.tsx",
      "spinner.tsx",
      "inline-alert.tsx",
      "empty-state.tsx",
      "loadable-view.tsx",
      "deferred-component.tsx",
      "confirm-remove-dialog.tsx",
    ],
    owns: "The UI's parts every screen uses: buttons, dialogs, fields, alerts, empty and loading states.",
    mayImport: "api/ (to word an error) and stores/ (the loadable state type); never a screen.",
    rooms: {
      "../app": {
        owns: "The app's frame: the root component, the sidebar, notices and the connection banner, keyboard shortcuts, theme, focus rescue.",
        files: [
          "app.tsx",
          "sidebar.tsx",
          "connection-banner.tsx",
          "notices.tsx",
          "keyboard-shortcuts.tsx",
          "shortcuts-sheet.tsx",
          "platform-keys.ts",
          "focus-rescue.ts",
          "theme-sync.tsx",
          "first-screen.ts",
        ],
      },
    },
  },
  {
    folder: "electron/host/mcp",
    stays: [
      "mcp-host.ts",
      "mcp-rpc.ts",
      "mcp-service.ts",
      "mcp-import.ts",
      "mcp-secrets.ts",
      "server-config.ts",
    ],
    owns: "MCP servers and their tools in chats (docs/contract.md §13): `mcp-host.ts` wires it once, `mcp-service.ts` is what the `mcp.*` methods do, `mcp-rpc.ts` their handlers; `server-config.ts` (one `mcp_servers` block) and `mcp-secrets.ts` (the keychain) are what every room reads.",
    mayImport:
      "Any layer below mcp in scripts/architecture/layers.mjs (sessions, plugins, llm, config, secrets, events, the contract); never createHost or the shell.",
    rooms: {
      connections: {
        owns: "Each configured server's connection: started over stdio or HTTP with its command found and its environment and PATH set, restarted, its log, what it may ask the app, a failed start in words that say what to fix.",
        files: [
          "mcp-manager.ts",
          "server-connection.ts",
          "server-requests.ts",
          "server-env.ts",
          "shell-path.ts",
          "command-lookup.ts",
          "connect-errors.ts",
          "server-log.ts",
        ],
      },
      tools: {
        owns: "MCP tools in a chat turn: the names the model sees, the arguments checked, the call and its result as the model reads it, the helper tools for resources and prompts.",
        files: ["chat-tools.ts", "tool-names.ts", "tool-result.ts", "helper-tools.ts"],
      },
      requests: {
        owns: "What waits on the person: tool approvals, a server's sampling and elicitation requests.",
        files: ["pending-requests.ts", "sampling.ts", "elicitation.ts"],
      },
      oauth: {
        owns: "OAuth sign-in for HTTP servers: the loopback redirect, the SDK's provider, the sign-in itself, tokens in the keychain and their refresh before they run out.",
        files: [
          "oauth-sign-in.ts",
          "oauth-callback.ts",
          "oauth-provider.ts",
          "oauth-store.ts",
          "oauth-refresh.ts",
        ],
      },
    },
  },
  {
    folder: "electron/host/plugins/runtime",
    // The two entries stay at the root beside the file that finds them by name
    // (plugin-host-bundle.ts joins paths, scripts/build-bundles.mjs reads `<name>-main.ts` here).
    stays: [
      "plugin-runtime.ts",
      "boundary.ts",
      "endpoint.ts",
      "errors.ts",
      "crash-policy.ts",
      "plugin-fault-advice.ts",
      "plugin-host-bundle.ts",
      "plugin-host-main.ts",
      "plugin-worker-main.ts",
    ],
    owns: "The plugin host process and one worker per plugin in it (docs/contract.md §5.4): `plugin-runtime.ts` starts it on first use, `boundary.ts` is the table of every call that crosses, `endpoint.ts` one side of a channel; `plugin-host-main.ts` and `plugin-worker-main.ts` are the entries the build bundles.",
    mayImport:
      "plugins/sdk, the plugins layer's other rooms and the layers below it (models, config, secrets, logging, the contract, the clock); the code under `in-worker/` and the two entries run in the plugin host, so they import only the SDK, the boundary and the channel.",
    rooms: {
      launch: {
        owns: "Starting the plugin host process under Node's permission model and at the lowest OS priority: its command line, the paths it may touch, the permission flags, its nice level.",
        files: [
          "plugin-host-process.ts",
          "plugin-host-args.ts",
          "runtime-paths.ts",
          "permission-flags.ts",
          "plugin-host-priority.ts",
        ],
      },
      channel: {
        owns: "The pipe between the host and the plugin host: sealed, its message codec, the doorbell a worker waits on for a synchronous answer.",
        files: ["sealed-channel.ts", "wire-codec.ts", "doorbell.ts"],
      },
      "host-half": {
        owns: "The host's side of one plugin's worker: the handle with deadlines and faults, the launch wired to the host's services, the handler of each `ctx` call.",
        files: ["worker-session.ts", "worker-launch.ts", "ctx-host.ts"],
      },
      "in-worker": {
        owns: "What runs inside a plugin's worker: `ctx` as the plugin sees it, `ctx.forkSession`, the check that the permission model confines it, loading the plugin's main module.",
        files: ["worker-ctx.ts", "worker-fork.ts", "worker-confinement.ts", "plugin-module.ts"],
      },
    },
  },
  {
    folder: "electron/host/sessions/store",
    stays: [
      "types.ts",
      "session-errors.ts",
      "session-store-error.ts",
      "store-file.ts",
      "migrations.ts",
      "open-database.ts",
    ],
    owns: "The SQLite store's parts: the file, its schema and migrations, the shapes it reads and writes and its errors at the root; the tables, the pending log and the text index's words in rooms. `../session-store.ts` puts them together with search.",
    mayImport:
      "The layers below sessions (config, llm, the contract, the clock) and nothing else of sessions/: every other room of sessions imports the store, never the other way.",
    rooms: {
      tables: {
        owns: "The session, message and chunk tables, message keys, the usage ledger, what a new session freezes from the settings.",
        files: [
          "session-table.ts",
          "message-table.ts",
          "message-chunks.ts",
          "message-key.ts",
          "usage-ledger.ts",
          "session-snapshot.ts",
        ],
      },
      pending: {
        owns: "The person's messages that are durable but not in the store yet: the log file and its wiring into the store.",
        files: ["pending-log.ts", "logged-messages.ts"],
      },
      text: {
        owns: "Text for the search index: the word list for prefixes, Markdown as the words a person reads.",
        files: ["search-terms.ts", "markdown-plain.ts"],
      },
    },
  },
  {
    folder: "electron/host/rpc",
    stays: [
      "contract.ts",
      "define.ts",
      "errors.ts",
      "events.ts",
      "frames.ts",
      "router.ts",
      "schema-builders.ts",
      "param-depth.ts",
      "plugin-names.ts",
      "web-token.ts",
    ],
    owns: "The contract shared with the renderer: the method table and its param schemas (`methods/`, built with TypeBox and `schema-builders.ts`), events and their topics, error reasons, frames, the router, plugin method and event names; the rules and words both sides apply in `shared-rules/`.",
    mayImport:
      "Nothing of the host outside `rpc/` (the renderer imports it), but the plugin SDK's types and the settings schema.",
    rooms: {
      "shared-rules": {
        owns: "Rules and words the host owns and the renderer shows or applies too, written once: capability texts, the built-in auxiliary slots, provider presets and ids, links that may leave the app, how an attached image is recognised, notice kinds shown as cards.",
        files: [
          "capability-text.ts",
          "auxiliary-slots.ts",
          "provider-presets.ts",
          "provider-id.ts",
          "external-links.ts",
          "image-types.ts",
          "session-notices.ts",
        ],
      },
    },
  },
];

/**
 * The folders that are not cut into rooms, described for their README (what it owns, what it may
 * import). scripts/move-rooms.mjs writes a README for each that has none (`--readmes` writes only
 * those, moving nothing).
 */
export const folders = [
  {
    folder: "electron",
    owns: "The Electron shell and the web entry: the main process's start (`main.ts`), the preload, windows (placement, state, guards, security), single instance, updates, the `hermes-plugin://` protocol, launching the plugin host in a utility process; `web.ts` starts web mode.",
    mayImport:
      "Everything below it (`host/`, `web/`); it alone imports `electron` and `electron-store`. Nothing imports the shell.",
  },
  {
    folder: "electron/web",
    owns: "Web mode: the HTTP server and its WebSockets on 127.0.0.1, the launch token and the Origin check, the REST routes, static files, plugin pages' own sockets.",
    mayImport: "`electron/host/` (createHost and the layers under it); never the shell or `electron`.",
  },
  {
    folder: "electron/host",
    owns: "The host: plain Node that never imports `electron`. At its root, `createHost` wiring the services, service errors mapped to RPC reasons, the warm-up, the event hub and activity, the clock, MIME types, the data home; each service in a room of its own.",
    mayImport:
      "Its own rooms by the layer order in scripts/architecture/layers.mjs (the root's files stand in the foundation, events and host layers); never the shell or the web entry.",
  },
  {
    folder: "electron/host/providers",
    owns: "The providers a person added: list, save (the key to the vault), remove, model lists, the fields a provider form shows.",
    mayImport: "The layers below providers: models, llm, config, secrets, the contract.",
  },
  {
    folder: "electron/host/providers/discovery",
    owns: "Local model servers found by probing in parallel (Ollama, LM Studio, llama.cpp, vLLM, Jan).",
    mayImport: "The layers below providers (the contract for the shapes it answers with).",
  },
  {
    folder: "electron/host/config",
    owns: "`config.yaml`: read, checked against the settings schema, written atomically, watched, repaired; the settings store every service reads; secrets kept out of it.",
    mayImport: "The layers below config: secrets, logging, the contract, the foundation.",
  },
  {
    folder: "electron/host/config/hermes-import",
    owns: "A Hermes set-up read safely (its `config.yaml` and `.env`), previewed as a plan, imported, undone.",
    mayImport: "config/ and the layers below it.",
  },
  {
    folder: "electron/host/rpc/methods",
    owns: "Each area's RPC methods: params type, result type and JSON Schema, joined in `../contract.ts`.",
    mayImport: "The rest of `rpc/`, the plugin SDK's types and the settings schema.",
  },
  {
    folder: "electron/host/llm",
    owns: "The request engine: the route a request takes, the client per provider, streaming (SSE), fallback, usage, errors in words, one auxiliary call.",
    mayImport: "The layers below llm: events, config, secrets, logging, the contract, the foundation.",
  },
  {
    folder: "electron/host/logging",
    owns: "`agent.log`: one line per event worth keeping, secrets redacted.",
    mayImport: "The contract and the foundation.",
  },
  {
    folder: "electron/host/models",
    owns: "The main model, the auxiliary slots and their routes, stale pins, base URLs and private endpoints, what a model can do.",
    mayImport: "The layers below models: llm, events, config, secrets, the contract.",
  },
  {
    folder: "electron/host/secrets",
    owns: "The vault (keytar, optional), the keychain's status, redaction of secrets in text and streams.",
    mayImport: "Logging, the contract and the foundation.",
  },
  {
    folder: "electron/host/plugins/idle",
    owns: "Plugins' idle tasks: the scheduler that runs them when the person is away, their claims, options, status and views.",
    mayImport: "The plugins layer's other rooms and the layers below it.",
  },
  {
    folder: "electron/host/plugins/pages",
    owns: "Plugin pages: the registry of `plugin.<id>.<method>` and its dispatch, page sessions and their tokens, the page site and its CSP, the page socket's rules, the bridge script, plugin events' checks.",
    mayImport: "The plugins layer's other rooms and the layers below it.",
  },
  {
    folder: "renderer/src",
    owns: "The UI (React + zustand): it holds no secret and makes no model call, it shows state and sends intents. `main.tsx` mounts the app.",
    mayImport:
      "Only the contract (`electron/host/rpc/`) of the host; no Node built-in, `electron` or host package.",
  },
  {
    folder: "renderer/src/api",
    owns: "One typed client over two transports (Electron IPC, WebSocket), the launch token, RPC errors in words, the settings' typed calls.",
    mayImport: "The contract only.",
  },
  {
    folder: "renderer/src/chat/mcp",
    owns: "MCP in a chat: approval, sampling and elicitation cards, a call's progress and its result's extras, resources to attach, prompts as slash commands.",
    mayImport: "renderer/src/{api,stores,ui}, the chat's other rooms and the contract.",
  },
  {
    folder: "renderer/src/styles",
    owns: "The app's CSS: design tokens, base styles, one sheet per surface.",
    mayImport: "Nothing (CSS imported by `main.tsx`).",
  },
  {
    folder: "renderer/src/settings/auxiliary",
    owns: "Settings → Models' auxiliary slots: the panel, a slot's row and editor, the words for a route, the stale-pin banner.",
    mayImport: "renderer/src/{api,stores,ui}, the settings' other rooms and the contract.",
  },
  {
    folder: "renderer/src/settings/mcp",
    owns: "Settings → MCP: the server list, the server form and its dialogs, secrets, OAuth, the log, import from Claude Desktop.",
    mayImport: "renderer/src/{api,stores,ui}, the settings' other rooms and the contract.",
  },
  {
    folder: "renderer/src/settings/plugins",
    owns: "Settings → Plugins: the list, a plugin's details, consent, idle tasks, the runtime's figures, the plugins folder.",
    mayImport: "renderer/src/{api,stores,ui}, the settings' other rooms and the contract.",
  },
  {
    folder: "renderer/src/plugins",
    owns: "Plugin pages in the app: the page's frame, the nav to them, the bridge that relays a page's calls and events.",
    mayImport: "renderer/src/{api,stores,ui} and the contract.",
  },
];
