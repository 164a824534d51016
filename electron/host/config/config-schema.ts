/**
 * The shape of `config.yaml` (docs/contract.md §3): TypeScript types, the JSON Schema (draft-07, ajv 8) and
 * the defaults. Key names are public and follow the Hermes Agent, hence snake_case.
 */

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

export interface MainModel {
  /** A provider id from `providers`; "" until the user picks one. */
  provider: string;
  model: string;
}

export interface ProviderConfig {
  name: string;
  base_url: string;
  /** An environment variable holding the key; used instead of the keychain when set. */
  key_env?: string;
  /** Names of extra auth profiles (vault account `<provider>:<profile>`), §4. */
  profiles?: string[];
  /** What the app can't learn from the provider, per model id (docs/contract.md §3, §9.1). */
  models?: Record<string, ModelSettings>;
}

export interface ModelSettings {
  /** Tokens. */
  context_window?: number;
  /** Whether the model takes image input. */
  vision?: boolean;
}

/**
 * One `mcp_servers.<id>` block as config.yaml holds it (docs/contract.md §13.1): exactly one of
 * `command` (stdio) or `url` (Streamable HTTP, or SSE with `transport: sse`); every other key
 * optional, with its default applied by electron/host/mcp/server-config.ts. Secret values are never
 * here: `secret_env` / `secret_headers` only name them (the keychain holds the values).
 */
export type McpServerDocument = {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  secret_env?: string[];
  url?: string;
  transport?: "streamable_http" | "sse";
  headers?: Record<string, string>;
  secret_headers?: string[];
  auth?: "oauth" | "none";
  oauth?: { client_id?: string; scope?: string; redirect_port?: number };
  enabled?: boolean;
  /** Seconds per tool call (default 300). */
  timeout?: number;
  /** Seconds to connect and initialize (default 60). */
  connect_timeout?: number;
  tools?: { include?: string[]; exclude?: string[] };
  approval?: McpApprovalMode;
  trust?: McpTrust;
  always_allow?: string[];
  roots?: string[];
  sampling?: {
    enabled?: boolean;
    model?: string;
    max_tokens_cap?: number;
    timeout?: number;
    max_rpm?: number;
    allowed_models?: string[];
  };
  elicitation?: { enabled?: boolean; timeout?: number };
};

export interface FallbackProvider {
  provider: string;
  model: string;
}

/** A user's `auxiliary.<task>` block. Kept partial on purpose: absent fields mean "not pinned". */
export interface AuxiliaryTaskConfig {
  /** `auto`, `main` or a provider id. */
  provider?: string;
  model?: string;
  base_url?: string;
  /** Seconds. */
  timeout?: number;
  reasoning_effort?: ReasoningEffort;
  extra_body?: Record<string, unknown>;
}

export interface PluginLlmPolicy {
  allow_provider_override: boolean;
  allowed_providers: string[];
  allow_model_override: boolean;
  allowed_models: string[];
  allow_agent_id_override: boolean;
  allow_profile_override: boolean;
  allow_task_override: boolean;
}

export interface CapabilitiesConsent {
  /** sha256 (hex) of the sorted declared capability ids joined by newlines. */
  hash: string;
  /** ISO 8601 time. */
  granted_at: string;
}

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

/** The effective settings: the file with defaults filled in. `SettingsStore.get()` hands them out deep-frozen. */
export interface Settings {
  model: MainModel;
  providers: Record<string, ProviderConfig>;
  fallback_providers: FallbackProvider[];
  auxiliary: Record<string, AuxiliaryTaskConfig>;
  plugins: PluginsSettings;
  security: { redact_secrets: boolean };
  display: { busy_input_mode: BusyInputMode; theme: Theme };
  /** `nudge_interval`: a background review every N person turns (0 = off), as in Hermes Agent. */
  memory: { note: string; nudge_interval: number };
  chat: { system_prompt: string };
  /** As written; electron/host/mcp/server-config.ts fills each block's defaults. */
  mcp_servers: Record<string, McpServerDocument>;
}

export interface PluginEntryDocument {
  llm?: Partial<PluginLlmPolicy>;
  granted_capabilities?: string[];
  capabilities_consent?: CapabilitiesConsent;
  /** docs/contract.md §5.4: no `daily_tokens` = no budget; `heap_mb` defaults to 256. */
  limits?: PluginLimits;
}

export interface PluginLimits {
  daily_tokens?: number;
  heap_mb?: number;
}

/** What `config.yaml` holds: every section optional, unknown top-level keys kept as they are. */
export interface SettingsDocument {
  model?: Partial<MainModel>;
  providers?: Record<string, ProviderConfig>;
  fallback_providers?: FallbackProvider[];
  auxiliary?: Record<string, AuxiliaryTaskConfig>;
  plugins?: { enabled?: string[]; disabled?: string[]; entries?: Record<string, PluginEntryDocument> };
  security?: { redact_secrets?: boolean };
  display?: { busy_input_mode?: BusyInputMode; theme?: Theme };
  memory?: { note?: string; nudge_interval?: number };
  chat?: { system_prompt?: string };
  mcp_servers?: Record<string, McpServerDocument>;
  [unknownKey: string]: unknown;
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

// `description` doubles as the human phrase in error messages ("must be <description>").
const providerId = {
  type: "string",
  pattern: PROVIDER_ID_PATTERN,
  description: "a provider id (lowercase letters, digits, _ and -, at most 64 characters)",
};
const pluginId = {
  type: "string",
  pattern: PLUGIN_ID_PATTERN,
  description: "a plugin id (lowercase letters, digits, _ and -, at most 64 characters)",
};
const httpUrl = {
  type: "string",
  pattern: "^https?://[^\\s]+$",
  description: "an http:// or https:// URL",
};
const nonEmptyString = { type: "string", minLength: 1 };
/** A provider id, or "" for none/auto. */
const providerIdOrEmpty = "^([a-z0-9][a-z0-9_-]{0,63})?$";
const stringList = (items: object) => ({ type: "array", items });

const auxiliaryTask = {
  type: "object",
  additionalProperties: false,
  properties: {
    provider: {
      type: "string",
      pattern: providerIdOrEmpty,
      description: 'auto, main, a provider id, or "" for auto',
    },
    model: { type: "string" },
    base_url: {
      type: "string",
      pattern: "^(https?://[^\\s]+)?$",
      description: 'an http:// or https:// URL, or "" for none',
    },
    timeout: { type: "number", exclusiveMinimum: 0, description: "a number of seconds greater than 0" },
    reasoning_effort: { type: "string", enum: [...REASONING_EFFORTS] },
    extra_body: { type: "object" },
  },
};

const pluginEntry = {
  type: "object",
  additionalProperties: false,
  properties: {
    llm: {
      type: "object",
      additionalProperties: false,
      properties: {
        allow_provider_override: { type: "boolean" },
        // "*" = any; matched case-insensitively, so any case is accepted (docs/contract.md §6.6).
        allowed_providers: stringList({
          type: "string",
          pattern: "^(\\*|[A-Za-z0-9][A-Za-z0-9_-]{0,63})$",
          description: 'a provider id or "*"',
        }),
        allow_model_override: { type: "boolean" },
        allowed_models: stringList(nonEmptyString),
        allow_agent_id_override: { type: "boolean" },
        allow_profile_override: { type: "boolean" },
        allow_task_override: { type: "boolean" },
      },
    },
    granted_capabilities: {
      type: "array",
      uniqueItems: true,
      items: {
        type: "string",
        pattern: "^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+$",
        description: "a capability id such as llm.side_question",
      },
    },
    limits: {
      type: "object",
      additionalProperties: false,
      properties: {
        daily_tokens: { type: "integer", minimum: 1, description: "tokens a day, input and output together" },
        heap_mb: {
          type: "integer",
          minimum: 16,
          maximum: 4096,
          description: "a heap cap in MB (16 to 4096)",
        },
      },
    },
    capabilities_consent: {
      type: "object",
      additionalProperties: false,
      required: ["hash", "granted_at"],
      properties: {
        hash: { type: "string", pattern: "^[0-9a-f]{64}$", description: "a sha256 in lowercase hex" },
        granted_at: {
          type: "string",
          pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$",
          description: "an ISO 8601 time such as 2026-11-29T10:00:00Z",
        },
      },
    },
  },
};

const positiveSeconds = {
  type: "number",
  exclusiveMinimum: 0,
  description: "a number of seconds greater than 0",
};
const envName = {
  type: "string",
  pattern: "^[A-Za-z_][A-Za-z0-9_]*$",
  description: "an environment variable name (letters, digits and _)",
};
const headerName = {
  type: "string",
  pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$",
  description: "an HTTP header name",
};

/** One `mcp_servers.<id>` block (docs/contract.md §13.1); unknown keys are refused by name. */
export const mcpServerSchema = {
  type: "object",
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
  properties: {
    command: { type: "string", minLength: 1 },
    args: stringList({ type: "string" }),
    env: { type: "object", propertyNames: envName, additionalProperties: { type: "string" } },
    secret_env: { type: "array", uniqueItems: true, items: envName },
    url: httpUrl,
    transport: { type: "string", enum: ["streamable_http", "sse"] },
    headers: { type: "object", propertyNames: headerName, additionalProperties: { type: "string" } },
    secret_headers: { type: "array", uniqueItems: true, items: headerName },
    auth: { type: "string", enum: ["oauth", "none"] },
    oauth: {
      type: "object",
      additionalProperties: false,
      properties: {
        client_id: { type: "string" },
        scope: { type: "string" },
        redirect_port: {
          type: "integer",
          minimum: 0,
          maximum: 65535,
          description: "a port from 0 (any free port) to 65535",
        },
      },
    },
    enabled: { type: "boolean" },
    timeout: positiveSeconds,
    connect_timeout: positiveSeconds,
    tools: {
      type: "object",
      additionalProperties: false,
      properties: { include: stringList(nonEmptyString), exclude: stringList(nonEmptyString) },
    },
    approval: { type: "string", enum: [...MCP_APPROVAL_MODES] },
    trust: { type: "string", enum: [...MCP_TRUST_LEVELS] },
    always_allow: stringList(nonEmptyString),
    roots: stringList(nonEmptyString),
    sampling: {
      type: "object",
      additionalProperties: false,
      properties: {
        enabled: { type: "boolean" },
        model: { type: "string" },
        max_tokens_cap: { type: "integer", minimum: 1, description: "a whole number of tokens (at least 1)" },
        timeout: positiveSeconds,
        max_rpm: {
          type: "integer",
          minimum: 1,
          description: "a whole number of requests a minute (at least 1)",
        },
        allowed_models: stringList(nonEmptyString),
      },
    },
    elicitation: {
      type: "object",
      additionalProperties: false,
      properties: { enabled: { type: "boolean" }, timeout: positiveSeconds },
    },
  },
} as const;

/** Known keys are strict; unknown top-level keys are allowed (Hermes users may have more). */
export const settingsSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://hermes-desktop.invalid/schemas/config.json",
  type: "object",
  additionalProperties: true,
  properties: {
    model: {
      type: "object",
      additionalProperties: false,
      properties: {
        provider: {
          type: "string",
          pattern: providerIdOrEmpty,
          description: 'a provider id, or "" for none',
        },
        model: { type: "string" },
      },
    },
    providers: {
      type: "object",
      propertyNames: providerId,
      additionalProperties: {
        type: "object",
        additionalProperties: false,
        required: ["name", "base_url"],
        properties: {
          name: nonEmptyString,
          base_url: httpUrl,
          key_env: {
            type: "string",
            pattern: "^[A-Za-z_][A-Za-z0-9_]*$",
            description: "an environment variable name",
          },
          profiles: {
            type: "array",
            uniqueItems: true,
            items: {
              type: "string",
              pattern: PROVIDER_ID_PATTERN,
              description: "a profile name (lowercase letters, digits, _ and -)",
            },
          },
          models: {
            type: "object",
            additionalProperties: {
              type: "object",
              additionalProperties: false,
              properties: {
                context_window: {
                  type: "integer",
                  minimum: MIN_CONTEXT_WINDOW,
                  description: `a number of tokens (at least ${MIN_CONTEXT_WINDOW})`,
                },
                vision: { type: "boolean" },
              },
            },
          },
        },
      },
    },
    fallback_providers: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["provider", "model"],
        properties: { provider: providerId, model: nonEmptyString },
      },
    },
    auxiliary: {
      type: "object",
      propertyNames: {
        type: "string",
        pattern: AUXILIARY_TASK_PATTERN,
        description: "an auxiliary task key (lowercase letters, digits and _, starting with a letter)",
      },
      additionalProperties: auxiliaryTask,
    },
    plugins: {
      type: "object",
      additionalProperties: false,
      properties: {
        enabled: stringList(pluginId),
        disabled: stringList(pluginId),
        entries: { type: "object", propertyNames: pluginId, additionalProperties: pluginEntry },
      },
    },
    security: {
      type: "object",
      additionalProperties: false,
      properties: { redact_secrets: { type: "boolean" } },
    },
    display: {
      type: "object",
      additionalProperties: false,
      properties: {
        busy_input_mode: { type: "string", enum: [...BUSY_INPUT_MODES] },
        theme: { type: "string", enum: [...THEMES] },
      },
    },
    memory: {
      type: "object",
      additionalProperties: false,
      properties: {
        note: { type: "string" },
        nudge_interval: {
          type: "integer",
          minimum: 0,
          maximum: 1000,
          description: "a whole number of person turns from 0 (off) to 1000",
        },
      },
    },
    chat: { type: "object", additionalProperties: false, properties: { system_prompt: { type: "string" } } },
    mcp_servers: {
      type: "object",
      propertyNames: {
        type: "string",
        pattern: MCP_SERVER_ID_PATTERN,
        description:
          "an MCP server id (lowercase letters, digits, _ and -, starting with a letter or digit, at most 32 characters)",
      },
      additionalProperties: mcpServerSchema,
    },
  },
} as const;
