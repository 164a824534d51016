import {
  defaultPluginLlmPolicy,
  defaultSettings,
  type PluginEntry,
  type PluginEntryDocument,
  type Settings,
  type SettingsDocument,
} from "./config-schema.js";
import { removePaths } from "./document-paths.js";
import { findDocumentIssues, type DocumentIssue } from "./schema-issues.js";

export interface RepairResult {
  /** The document with every offending value removed, so those keys run at their defaults. */
  repaired: SettingsDocument;
  /** What was wrong, one entry per key, in the order found. */
  issues: DocumentIssue[];
}

const MAX_REPAIR_PASSES = 8;

/**
 * Removes offending values until the document validates. Removing a value can break its parent
 * (a provider without `base_url`), so this runs in passes; the parent goes in the next pass.
 */
export function repairDocument(doc: Record<string, unknown>): RepairResult {
  const repaired = structuredClone(doc);
  const issues: DocumentIssue[] = [];
  const seen = new Set<string>();
  for (let pass = 0; pass < MAX_REPAIR_PASSES; pass++) {
    const found = findDocumentIssues(repaired);
    if (found.length === 0) return { repaired, issues };
    for (const issue of found) {
      if (!seen.has(issue.key)) issues.push(issue);
      seen.add(issue.key);
    }
    const toRemove: string[][] = [];
    for (const issue of found) {
      if (isWholeAllowlist(issue.repairPath)) failClosedAllowlist(repaired, issue.repairPath);
      else toRemove.push(issue.repairPath);
    }
    removePaths(repaired, toRemove);
  }
  // Unreachable for this schema; kept so a future schema can never loop or leak bad values.
  return { repaired: {}, issues };
}

const allowlistKeys = new Set(["allowed_providers", "allowed_models"]);

/** `plugins.entries.<id>.llm.allowed_*` itself (not one of its items). */
const isWholeAllowlist = (path: string[]): boolean =>
  path.length === 5 &&
  path[0] === "plugins" &&
  path[1] === "entries" &&
  path[3] === "llm" &&
  allowlistKeys.has(path[4]!);

/**
 * An absent allowlist allows any value (docs/contract.md §6.6), so dropping a broken one would open the gate;
 * a broken allowlist becomes an empty one, which allows none.
 */
function failClosedAllowlist(doc: Record<string, unknown>, path: string[]): void {
  let node: unknown = doc;
  for (const segment of path.slice(0, -1)) node = (node as Record<string, unknown>)[segment];
  (node as Record<string, unknown>)[path[path.length - 1]!] = [];
}

/** The settings the app runs on: the (valid) document over the defaults, deep-frozen. */
export function toEffectiveSettings(doc: SettingsDocument): Settings {
  const defaults = defaultSettings();
  const entries: Record<string, PluginEntry> = {};
  for (const [id, entry] of Object.entries(doc.plugins?.entries ?? {})) {
    entries[id] = toPluginEntry(entry);
  }
  const settings: Settings = {
    model: { ...defaults.model, ...doc.model },
    providers: { ...doc.providers },
    fallback_providers: [...(doc.fallback_providers ?? [])],
    auxiliary: { ...doc.auxiliary },
    plugins: {
      enabled: [...(doc.plugins?.enabled ?? [])],
      disabled: [...(doc.plugins?.disabled ?? [])],
      entries,
    },
    security: { ...defaults.security, ...doc.security },
    display: { ...defaults.display, ...doc.display },
    memory: { ...defaults.memory, ...doc.memory },
    chat: { ...defaults.chat, ...doc.chat },
    mcp_servers: { ...doc.mcp_servers },
  };
  return deepFreeze(structuredClone(settings));
}

function toPluginEntry(entry: PluginEntryDocument): PluginEntry {
  return {
    llm: { ...defaultPluginLlmPolicy(), ...entry.llm },
    granted_capabilities: [...(entry.granted_capabilities ?? [])],
    capabilities_consent: entry.capabilities_consent ? { ...entry.capabilities_consent } : null,
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
