/**
 * The shape of `config.yaml` (docs/contract.md §3): the JSON Schema (draft-07, ajv 8), written with
 * TypeBox so the document's TypeScript types are derived from it (`Static`) and cannot drift, and
 * the defaults. Key names are public and follow the Hermes Agent, hence snake_case.
 */
import { Type, type Static } from "@sinclair/typebox";
import { AnyObject, MapOf, StringEnum } from "../rpc/schema-builders.js";

export const BUSY_INPUT_MODES = ["queue", "steer", "interrupt"] as const;
/** `display.theme`: follow the system's light/dark setting, or always one of them. */
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
export type BusyInputMode = (typeof BUSY_INPUT_MODES)[number];

export const REASONING_EFFORTS = ["", "none", "minimal", "low", "medium", "high", "xhigh"] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** The smallest `providers.<id>.models.<model>.context_window` the schema accepts. */
export const MIN_CONTEXT_WINDOW = 256;

export const PROVIDER_ID_PATTERN = "^[a-z0-9][a-z0-9_-]{0,63}$";
export const PLUGIN_ID_PATTERN = "^[a-z0-9_-]{1,64}$";
export const AUXILIARY_TASK_PATTERN = "^[a-z][a-z0-9_]{0,63}$";
/** An MCP server id (docs/contract.md §13.1). */
export const MCP_SERVER_ID_PATTERN = "^[a-z0-9][a-z0-9_-]{0,31}$";
export const MCP_APPROVAL_MODES = ["ask", "read_only", "never"] as const;
export type McpApprovalMode = (typeof MCP_APPROVAL_MODES)[number];
/** Hermes' `trust` key: `full` reads as `approval: never`, `untrusted` as `approval: read_only`. */
export const MCP_TRUST_LEVELS = ["full", "untrusted"] as const;
export type McpTrust = (typeof MCP_TRUST_LEVELS)[number];

// `description` doubles as the human phrase in error messages ("must be <description>").
const providerId = Type.String({
  pattern: PROVIDER_ID_PATTERN,
  description: "a provider id (lowercase letters, digits, _ and -, at most 64 characters)",
});
const pluginId = Type.String({
  pattern: PLUGIN_ID_PATTERN,
  description: "a plugin id (lowercase letters, digits, _ and -, at most 64 characters)",
});
const httpUrl = Type.String({ pattern: "^https?://[^\\s]+$", description: "an http:// or https:// URL" });
const nonEmptyString = Type.String({ minLength: 1 });
/** A provider id, or "" for none/auto. */
const providerIdOrEmpty = "^([a-z0-9][a-z0-9_-]{0,63})?$";
const closed = { additionalProperties: false } as const;

const mainModelSchema = Type.Object(
  {
    /** A provider id from `providers`; "" until the user picks one. */
    provider: Type.Optional(
      Type.String({ pattern: providerIdOrEmpty, description: 'a provider id, or "" for none' }),
    ),
    model: Type.Optional(Type.String()),
  },
  closed,
);

const modelSettingsSchema = Type.Object(
  {
    /** Tokens. */
    context_window: Type.Optional(
      Type.Integer({
        minimum: MIN_CONTEXT_WINDOW,
        description: `a number of tokens (at least ${MIN_CONTEXT_WINDOW})`,
      }),
    ),
    /** Whether the model takes image input. */
    vision: Type.Optional(Type.Boolean()),
  },
  closed,
);
export type ModelSettings = Static<typeof modelSettingsSchema>;

const providerConfigSchema = Type.Object(
  {
    name: nonEmptyString,
    base_url: httpUrl,
    /** An environment variable holding the key; used instead of the keychain when set. */
    key_env: Type.Optional(
      Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]*$", description: "an environment variable name" }),
    ),
    /** Names of extra auth profiles (vault account `<provider>:<profile>`), §4. */
    profiles: Type.Optional(
      Type.Array(
        Type.String({
          pattern: PROVIDER_ID_PATTERN,
          description: "a profile name (lowercase letters, digits, _ and -)",
        }),
        { uniqueItems: true },
      ),
    ),
    /** What the app can't learn from the provider, per model id (docs/contract.md §3, §9.1). */
    models: Type.Optional(MapOf(modelSettingsSchema)),
  },
  closed,
);
export type ProviderConfig = Static<typeof providerConfigSchema>;

const fallbackProviderSchema = Type.Object({ provider: providerId, model: nonEmptyString }, closed);
export type FallbackProvider = Static<typeof fallbackProviderSchema>;

/** A user's `auxiliary.<task>` block. Kept partial on purpose: absent fields mean "not pinned". */
const auxiliaryTaskSchema = Type.Object(
  {
    /** `auto`, `main` or a provider id. */
    provider: Type.Optional(
      Type.String({ pattern: providerIdOrEmpty, description: 'auto, main, a provider id, or "" for auto' }),
    ),
    model: Type.Optional(Type.String()),
    base_url: Type.Optional(
      Type.String({
        pattern: "^(https?://[^\\s]+)?$",
        description: 'an http:// or https:// URL, or "" for none',
      }),
    ),
    /** Seconds. */
    timeout: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, description: "a number of seconds greater than 0" }),
    ),
    reasoning_effort: Type.Optional(StringEnum(REASONING_EFFORTS)),
    extra_body: Type.Optional(AnyObject()),
  },
  closed,
);
export type AuxiliaryTaskConfig = Static<typeof auxiliaryTaskSchema>;

const pluginLlmPolicySchema = Type.Object(
  {
    allow_provider_override: Type.Optional(Type.Boolean()),
    // "*" = any; matched case-insensitively, so any case is accepted (docs/contract.md §6.6).
    allowed_providers: Type.Optional(
      Type.Array(
        Type.String({
          pattern: "^(\\*|[A-Za-z0-9][A-Za-z0-9_-]{0,63})$",
          description: 'a provider id or "*"',
        }),
      ),
    ),
    allow_model_override: Type.Optional(Type.Boolean()),
    allowed_models: Type.Optional(Type.Array(nonEmptyString)),
    allow_agent_id_override: Type.Optional(Type.Boolean()),
    allow_profile_override: Type.Optional(Type.Boolean()),
    allow_task_override: Type.Optional(Type.Boolean()),
  },
  closed,
);
/** A plugin's `llm` policy as the app applies it: every field present (absent in the file = false / none). */
export type PluginLlmPolicy = Required<Static<typeof pluginLlmPolicySchema>>;

const capabilitiesConsentSchema = Type.Object(
  {
    /** sha256 (hex) of the sorted declared capability ids joined by newlines. */
    hash: Type.String({ pattern: "^[0-9a-f]{64}$", description: "a sha256 in lowercase hex" }),
    /** ISO 8601 time. */
    granted_at: Type.String({
      pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$",
      description: "an ISO 8601 time such as 2026-11-29T10:00:00Z",
    }),
  },
  closed,
);
export type CapabilitiesConsent = Static<typeof capabilitiesConsentSchema>;

/** docs/contract.md §5.4: no `daily_tokens` = no budget; `heap_mb` defaults to 256. */
const pluginLimitsSchema = Type.Object(
  {
    daily_tokens: Type.Optional(
      Type.Integer({ minimum: 1, description: "tokens a day, input and output together" }),
    ),
    heap_mb: Type.Optional(
      Type.Integer({ minimum: 16, maximum: 4096, description: "a heap cap in MB (16 to 4096)" }),
    ),
  },
  closed,
);
export type PluginLimits = Static<typeof pluginLimitsSchema>;

const pluginEntrySchema = Type.Object(
  {
    llm: Type.Optional(pluginLlmPolicySchema),
    granted_capabilities: Type.Optional(
      Type.Array(
        Type.String({
          pattern: "^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+$",
          description: "a capability id such as llm.side_question",
        }),
        { uniqueItems: true },
      ),
    ),
    limits: Type.Optional(pluginLimitsSchema),
    capabilities_consent: Type.Optional(capabilitiesConsentSchema),
  },
  closed,
);
export type PluginEntryDocument = Static<typeof pluginEntrySchema>;

const positiveSeconds = Type.Number({
  exclusiveMinimum: 0,
  description: "a number of seconds greater than 0",
});
const envName = Type.String({
  pattern: "^[A-Za-z_][A-Za-z0-9_]*$",
  description: "an environment variable name (letters, digits and _)",
});
const headerName = Type.String({
  pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$",
  description: "an HTTP header name",
});
const stringsOf = (item = nonEmptyString) => Type.Optional(Type.Array(item));

/**
 * One `mcp_servers.<id>` block (docs/contract.md §13.1): exactly one of `command` (stdio) or `url`
 * (Streamable HTTP, or SSE with `transport: sse`); every other key optional, with its default
 * applied by electron/host/mcp/server-config.ts; unknown keys are refused by name. Secret values
 * are never here: `secret_env` / `secret_headers` only name them (the keychain holds the values).
 */
export const mcpServerSchema = Type.Object(
  {
    command: Type.Optional(Type.String({ minLength: 1 })),
    args: stringsOf(Type.String()),
    env: Type.Optional(MapOf(Type.String(), envName)),
    secret_env: Type.Optional(Type.Array(envName, { uniqueItems: true })),
    url: Type.Optional(httpUrl),
    transport: Type.Optional(StringEnum(["streamable_http", "sse"])),
    headers: Type.Optional(MapOf(Type.String(), headerName)),
    secret_headers: Type.Optional(Type.Array(headerName, { uniqueItems: true })),
    auth: Type.Optional(StringEnum(["oauth", "none"])),
    oauth: Type.Optional(
      Type.Object(
        {
          client_id: Type.Optional(Type.String()),
          scope: Type.Optional(Type.String()),
          redirect_port: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: 65535,
              description: "a port from 0 (any free port) to 65535",
            }),
          ),
        },
        closed,
      ),
    ),
    enabled: Type.Optional(Type.Boolean()),
    /** Seconds per tool call (default 300). */
    timeout: Type.Optional(positiveSeconds),
    /** Seconds to connect and initialize (default 60). */
    connect_timeout: Type.Optional(positiveSeconds),
    tools: Type.Optional(Type.Object({ include: stringsOf(), exclude: stringsOf() }, closed)),
    approval: Type.Optional(StringEnum(MCP_APPROVAL_MODES)),
    trust: Type.Optional(StringEnum(MCP_TRUST_LEVELS)),
    always_allow: stringsOf(),
    roots: stringsOf(),
    sampling: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean()),
          model: Type.Optional(Type.String()),
          max_tokens_cap: Type.Optional(
            Type.Integer({ minimum: 1, description: "a whole number of tokens (at least 1)" }),
          ),
          timeout: Type.Optional(positiveSeconds),
          max_rpm: Type.Optional(
            Type.Integer({ minimum: 1, description: "a whole number of requests a minute (at least 1)" }),
          ),
          allowed_models: stringsOf(),
        },
        closed,
      ),
    ),
    elicitation: Type.Optional(
      Type.Object(
        { enabled: Type.Optional(Type.Boolean()), timeout: Type.Optional(positiveSeconds) },
        closed,
      ),
    ),
  },
  {
    additionalProperties: false,
    // Exactly one of command/url: both is refused with what to do, neither asks for a command.
    not: {
      type: "object",
      properties: { command: true, url: true },
      required: ["command", "url"],
      description:
        "has both command and url; keep one: command for a local (stdio) server, url for a remote one",
    },
    if: { not: { type: "object", properties: { url: true }, required: ["url"] } },
    then: { type: "object", properties: { command: true }, required: ["command"] },
  },
);
export type McpServerDocument = Static<typeof mcpServerSchema>;

const securitySchema = Type.Object({ redact_secrets: Type.Optional(Type.Boolean()) }, closed);
const displaySchema = Type.Object(
  { busy_input_mode: Type.Optional(StringEnum(BUSY_INPUT_MODES)), theme: Type.Optional(StringEnum(THEMES)) },
  closed,
);
const memorySchema = Type.Object(
  {
    note: Type.Optional(Type.String()),
    /** A background review every N person turns (0 = off), as in Hermes Agent. */
    nudge_interval: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000,
        description: "a whole number of person turns from 0 (off) to 1000",
      }),
    ),
  },
  closed,
);
const chatSchema = Type.Object({ system_prompt: Type.Optional(Type.String()) }, closed);

/** Known keys are strict; unknown top-level keys are allowed (Hermes users may have more). */
export const settingsSchema = Type.Object(
  {
    model: Type.Optional(mainModelSchema),
    providers: Type.Optional(MapOf(providerConfigSchema, providerId)),
    fallback_providers: Type.Optional(Type.Array(fallbackProviderSchema)),
    auxiliary: Type.Optional(
      MapOf(
        auxiliaryTaskSchema,
        Type.String({
          pattern: AUXILIARY_TASK_PATTERN,
          description: "an auxiliary task key (lowercase letters, digits and _, starting with a letter)",
        }),
      ),
    ),
    plugins: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Array(pluginId)),
          disabled: Type.Optional(Type.Array(pluginId)),
          entries: Type.Optional(MapOf(pluginEntrySchema, pluginId)),
        },
        closed,
      ),
    ),
    security: Type.Optional(securitySchema),
    display: Type.Optional(displaySchema),
    memory: Type.Optional(memorySchema),
    chat: Type.Optional(chatSchema),
    mcp_servers: Type.Optional(
      MapOf(
        mcpServerSchema,
        Type.String({
          pattern: MCP_SERVER_ID_PATTERN,
          description:
            "an MCP server id (lowercase letters, digits, _ and -, starting with a letter or digit, at most 32 characters)",
        }),
      ),
    ),
  },
  {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "https://hermes-desktop.invalid/schemas/config.json",
    additionalProperties: true,
  },
);

/** The document's known keys, each optional: what the schema checks. */
export type KnownSettingsDocument = Static<typeof settingsSchema>;
/** What `config.yaml` holds: every section optional, unknown top-level keys kept as they are. */
export type SettingsDocument = KnownSettingsDocument & { [unknownKey: string]: unknown };

export type MainModel = Required<Static<typeof mainModelSchema>>;

/** A plugin entry as the app sees it: every policy field present, nothing granted by default. */
export interface PluginEntry {
  llm: PluginLlmPolicy;
  granted_capabilities: string[];
  capabilities_consent: CapabilitiesConsent | null;
}

export interface PluginsSettings {
  enabled: string[];
  disabled: string[];
  entries: Record<string, PluginEntry>;
}

/**
 * The effective settings: the file with defaults filled in, each section whole (so not the
 * schema's type, but made of its parts). `SettingsStore.get()` hands them out deep-frozen.
 */
export interface Settings {
  model: MainModel;
  providers: Record<string, ProviderConfig>;
  fallback_providers: FallbackProvider[];
  auxiliary: Record<string, AuxiliaryTaskConfig>;
  plugins: PluginsSettings;
  security: Required<Static<typeof securitySchema>>;
  display: Required<Static<typeof displaySchema>>;
  /** `nudge_interval`: a background review every N person turns (0 = off), as in Hermes Agent. */
  memory: Required<Static<typeof memorySchema>>;
  chat: Required<Static<typeof chatSchema>>;
  /** As written; electron/host/mcp/server-config.ts fills each block's defaults. */
  mcp_servers: Record<string, McpServerDocument>;
}

export function defaultPluginLlmPolicy(): PluginLlmPolicy {
  return {
    allow_provider_override: false,
    allowed_providers: [],
    allow_model_override: false,
    allowed_models: [],
    allow_agent_id_override: false,
    allow_profile_override: false,
    allow_task_override: false,
  };
}

export function defaultSettings(): Settings {
  return {
    model: { provider: "", model: "" },
    providers: {},
    fallback_providers: [],
    auxiliary: {},
    plugins: { enabled: [], disabled: [], entries: {} },
    security: { redact_secrets: true },
    display: { busy_input_mode: "queue", theme: "system" },
    memory: { note: "", nudge_interval: 10 },
    chat: { system_prompt: "" },
    mcp_servers: {},
  };
}
