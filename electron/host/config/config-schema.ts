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
  },
} as const;
