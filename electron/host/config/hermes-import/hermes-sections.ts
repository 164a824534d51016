/**
 * How each top-level section of a Hermes `config.yaml` comes over (docs/contract.md §3, §3.1). One
 * entry per section; a section not listed is reported as not imported. A section the app's schema
 * learns later (e.g. `mcp_servers`) is copied once the schema names it: `copyWhenSchemaKnows`.
 */
import {
  BUSY_INPUT_MODES,
  PLUGIN_ID_PATTERN,
  settingsSchema,
  type AuxiliaryTaskConfig,
} from "../config-schema.js";
import type { HermesProviders } from "./hermes-providers.js";
import { addEdit, skip, type ImportPlan } from "./import-plan.js";
import {
  optionalBoolean,
  optionalList,
  optionalMap,
  optionalNumber,
  optionalString,
  stringList,
  type HermesMap,
} from "./hermes-values.js";

export interface SectionContext {
  plan: ImportPlan;
  providers: HermesProviders;
}

type SectionImporter = (value: unknown, context: SectionContext) => void;

const noSuchSetting = "Hermes Desktop has no such setting.";

export const sectionImporters: Record<string, SectionImporter> = {
  model: importModel,
  // Read by HermesProviders; each provider joins the import where it is defined or used.
  custom_providers: () => undefined,
  providers: () => undefined,
  fallback_providers: (value, context) => importFallbacks(optionalList(value, "fallback_providers"), context),
  fallback_model: (value, context) => {
    const single = optionalMap(value, "fallback_model");
    if (single) importFallbacks([single], context, "fallback_model");
  },
  auxiliary: importAuxiliary,
  plugins: importPlugins,
  display: (value, { plan }) => {
    const display = optionalMap(value, "display") ?? {};
    for (const [field, item] of Object.entries(display)) {
      if (field !== "busy_input_mode") {
        skip(plan, `display.${field}`, noSuchSetting);
        continue;
      }
      const mode = optionalString(item, "display.busy_input_mode");
      if (mode === undefined) continue;
      if ((BUSY_INPUT_MODES as readonly string[]).includes(mode))
        addEdit(plan, ["display", "busy_input_mode"], mode);
      else skip(plan, "display.busy_input_mode", `"${mode}" is not one of ${BUSY_INPUT_MODES.join(", ")}.`);
    }
  },
  security: (value, { plan }) => {
    const security = optionalMap(value, "security") ?? {};
    for (const [field, item] of Object.entries(security)) {
      if (field === "redact_secrets") {
        const on = optionalBoolean(item, "security.redact_secrets");
        if (on !== undefined) addEdit(plan, ["security", "redact_secrets"], on);
      } else skip(plan, `security.${field}`, noSuchSetting);
    }
  },
  memory: (value, { plan }) => {
    const memory = optionalMap(value, "memory") ?? {};
    for (const [field, item] of Object.entries(memory)) {
      const interval = field === "nudge_interval" ? optionalNumber(item, "memory.nudge_interval") : undefined;
      if (interval !== undefined && Number.isInteger(interval) && interval >= 0 && interval <= 1000) {
        addEdit(plan, ["memory", "nudge_interval"], interval);
      } else skip(plan, `memory.${field}`, noSuchSetting);
    }
  },
  mcp_servers: copyWhenSchemaKnows("mcp_servers", "MCP servers are not supported yet."),
};

/** Each entry of the section, as is, once the app's schema has the section; until then, listed with `reason`. */
function copyWhenSchemaKnows(section: string, reason: string): SectionImporter {
  return (value, { plan }) => {
    const entries = optionalMap(value, section) ?? {};
    const known = Object.hasOwn(settingsSchema.properties, section);
    for (const [id, entry] of Object.entries(entries)) {
      if (known) addEdit(plan, [section, id], entry);
      else skip(plan, `${section}.${id}`, reason);
    }
  };
}

/** `model: {provider, default}` (or `model: "id"`) → the main model `{provider, model}`. */
function importModel(value: unknown, { plan, providers }: SectionContext): void {
  if (typeof value === "string") {
    skip(plan, "model", `The model "${value}" names no provider; pick the main model in Settings → Models.`);
    return;
  }
  const model = optionalMap(value, "model");
  if (!model) return;
  const provider = optionalString(model["provider"], "model.provider")?.trim();
  const id =
    optionalString(model["default"], "model.default") ?? optionalString(model["model"], "model.model");
  const baseUrl = optionalString(model["base_url"], "model.base_url");
  for (const field of Object.keys(model)) {
    if (!["provider", "default", "model", "base_url", "api_key"].includes(field)) {
      skip(plan, `model.${field}`, noSuchSetting);
    }
  }
  if (model["api_key"] !== undefined) {
    skip(
      plan,
      "model.api_key",
      "A key written into config.yaml is not copied; add it in Settings → Providers.",
    );
  }
  if (!provider || provider === "auto") {
    skip(
      plan,
      "model.provider",
      "Hermes picks this provider by itself; pick the main model in Settings → Models.",
    );
    return;
  }
  const resolved = providers.resolve(provider, baseUrl ? { base_url: baseUrl } : {});
  if (resolved.id === null) {
    skip(plan, "model.provider", resolved.reason);
    return;
  }
  addEdit(plan, ["model", "provider"], resolved.id);
  if (id) addEdit(plan, ["model", "model"], id);
}

function importFallbacks(
  list: unknown[] | undefined,
  context: SectionContext,
  section = "fallback_providers",
): void {
  if (!list) return;
  const { plan, providers } = context;
  const chain: { provider: string; model: string }[] = [];
  list.forEach((entry, index) => {
    const key = section === "fallback_model" ? section : `${section}[${index}]`;
    const block = optionalMap(entry, key);
    if (!block) return;
    const provider = optionalString(block["provider"], `${key}.provider`)?.trim();
    const model = optionalString(block["model"], `${key}.model`)?.trim();
    if (!provider || !model) {
      skip(plan, key, "A fallback needs both provider and model.");
      return;
    }
    const resolved = providers.resolve(provider, {
      ...(typeof block["base_url"] === "string" && { base_url: block["base_url"] }),
    });
    if (resolved.id === null) skip(plan, key, resolved.reason);
    else chain.push({ provider: resolved.id, model });
  });
  if (chain.length === 0) return;
  // `fallback_model` (the older single form) adds to the chain `fallback_providers` makes.
  const existing = plan.edits.find((edit) => edit.key === "fallback_providers");
  if (existing) (existing.value as typeof chain).push(...chain);
  else addEdit(plan, ["fallback_providers"], chain);
}

const auxiliaryFields = ["provider", "model", "base_url", "timeout", "reasoning_effort", "extra_body"];

/** Every `auxiliary.<task>` block: its pin (provider resolved to an app id), timeout and extra_body. */
function importAuxiliary(value: unknown, { plan, providers }: SectionContext): void {
  const auxiliary = optionalMap(value, "auxiliary") ?? {};
  for (const [task, raw] of Object.entries(auxiliary)) {
    const key = `auxiliary.${task}`;
    const block = optionalMap(raw, key);
    if (!block) continue;
    const slot: AuxiliaryTaskConfig = {};
    const provider = optionalString(block["provider"], `${key}.provider`)?.trim();
    const baseUrl = optionalString(block["base_url"], `${key}.base_url`)?.trim();
    if (provider === "auto" || provider === "main" || provider === "") slot.provider = provider;
    else if (provider) {
      const resolved = providers.resolve(provider, baseUrl ? { base_url: baseUrl } : {});
      if (resolved.id === null) skip(plan, `${key}.provider`, resolved.reason);
      else slot.provider = resolved.id;
    }
    const model = optionalString(block["model"], `${key}.model`);
    if (model !== undefined) slot.model = model;
    if (baseUrl !== undefined) slot.base_url = baseUrl;
    const timeout = optionalNumber(block["timeout"], `${key}.timeout`);
    if (timeout !== undefined) slot.timeout = timeout;
    const effort = optionalString(block["reasoning_effort"], `${key}.reasoning_effort`);
    if (effort !== undefined) slot.reasoning_effort = effort as AuxiliaryTaskConfig["reasoning_effort"];
    const extraBody = optionalMap(block["extra_body"], `${key}.extra_body`);
    if (extraBody) slot.extra_body = extraBody;
    for (const field of Object.keys(block)) {
      if (field === "api_key")
        skip(
          plan,
          `${key}.api_key`,
          "A key written into config.yaml is not copied; keys live in the keychain.",
        );
      else if (!auxiliaryFields.includes(field)) skip(plan, `${key}.${field}`, noSuchSetting);
    }
    if (Object.keys(slot).length > 0) addEdit(plan, ["auxiliary", task], slot);
  }
}

const policyFields = [
  "allow_provider_override",
  "allowed_providers",
  "allow_model_override",
  "allowed_models",
  "allow_agent_id_override",
  "allow_profile_override",
  "allow_task_override",
] as const;

/**
 * `plugins.enabled` / `disabled`, each entry's `llm` trust policy and `limits`. Granted
 * capabilities are not written: they arrive pending, and the consent screen asks for them.
 */
const pluginId = new RegExp(PLUGIN_ID_PATTERN);

function importPlugins(value: unknown, { plan }: SectionContext): void {
  const plugins = optionalMap(value, "plugins") ?? {};
  for (const list of ["enabled", "disabled"] as const) {
    const ids = stringList(plugins[list], `plugins.${list}`);
    if (!ids) continue;
    const valid = ids.filter((id) => pluginId.test(id));
    for (const id of ids.filter((id) => !pluginId.test(id))) {
      skip(
        plan,
        `plugins.${list}.${id}`,
        "Not a plugin ID Hermes Desktop can load (lowercase letters, digits, _ and -).",
      );
    }
    addEdit(plan, ["plugins", list], valid);
  }
  const entries = optionalMap(plugins["entries"], "plugins.entries") ?? {};
  for (const [id, raw] of Object.entries(entries)) {
    const key = `plugins.entries.${id}`;
    const entry = optionalMap(raw, key) ?? {};
    const llm = optionalMap(entry["llm"], `${key}.llm`);
    if (llm) {
      const policy: HermesMap = {};
      for (const [field, item] of Object.entries(llm)) {
        if (!(policyFields as readonly string[]).includes(field)) {
          skip(plan, `${key}.llm.${field}`, noSuchSetting);
          continue;
        }
        policy[field] = field.startsWith("allowed_")
          ? stringList(item, `${key}.llm.${field}`)
          : optionalBoolean(item, `${key}.llm.${field}`);
        if (policy[field] === undefined) delete policy[field];
      }
      addEdit(plan, ["plugins", "entries", id, "llm"], policy);
    }
    const limits = optionalMap(entry["limits"], `${key}.limits`);
    if (limits) addEdit(plan, ["plugins", "entries", id, "limits"], limits);
    const granted = stringList(entry["granted_capabilities"], `${key}.granted_capabilities`);
    if (granted && granted.length > 0)
      plan.pendingConsent.push({ plugin: id, capabilities: [...granted].sort() });
    for (const field of Object.keys(entry)) {
      if (!["llm", "limits", "granted_capabilities", "capabilities_consent"].includes(field)) {
        skip(plan, `${key}.${field}`, noSuchSetting);
      }
    }
  }
  for (const field of Object.keys(plugins)) {
    if (!["enabled", "disabled", "entries"].includes(field)) skip(plan, `plugins.${field}`, noSuchSetting);
  }
}
