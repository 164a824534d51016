/**
 * The one registry of auxiliary slots (docs/contract.md §6.2, §6.3): the built-ins in their fixed order, then
 * the slots enabled plugins registered, sorted by key. Every surface reads it — the resolver,
 * `model.auxiliary.list` and its REST twin, the settings page, reset-all and stale detection — so
 * none of them can list a different set. A host service: plugins reach it through one `ctx` call.
 */
import { AUXILIARY_TASK_PATTERN, type AuxiliaryTaskConfig } from "../config/config-schema.js";
import { BUILTIN_SLOTS } from "../rpc/shared-rules/auxiliary-slots.js";

// The built-ins are the contract's (the renderer shows their labels too).
export { BUILTIN_SLOTS };

export type BuiltinTask = (typeof BUILTIN_SLOTS)[number]["key"];
export const BUILTIN_TASK_KEYS: readonly BuiltinTask[] = BUILTIN_SLOTS.map((s) => s.key);

/** Hermes built-ins the app does not run; their keys stay reserved (docs/contract.md §6.2). */
export const RESERVED_TASK_KEYS = [
  "approval",
  "review",
  "memory_query_rewrite",
  "curator",
  "web_extract",
  "skills_hub",
  "tts_audio_tags",
  "goal_judge",
  "monitor",
] as const;

export const isBuiltinTask = (key: string): key is BuiltinTask =>
  (BUILTIN_TASK_KEYS as readonly string[]).includes(key);

export type SlotDefaults = AuxiliaryTaskConfig;

/** A slot as every surface sees it; `kind` tells a built-in from a plugin's. */
export type SlotDefinition =
  | { kind: "builtin"; key: BuiltinTask; label: string; description: string }
  | {
      kind: "plugin";
      pluginId: string;
      key: string;
      label: string;
      description: string;
      defaults: SlotDefaults;
      inheritFrom: string | null;
    };

export type PluginSlot = Extract<SlotDefinition, { kind: "plugin" }>;

export interface AuxiliaryTaskSpec {
  displayName?: unknown;
  description?: unknown;
  defaults?: unknown;
  inheritFrom?: unknown;
}

const keyPattern = new RegExp(AUXILIARY_TASK_PATTERN);

/**
 * What is wrong with a task key by the rules that need no registry (pattern, built-in and reserved
 * keys), or null. A plugin's worker checks these at once, so the error reaches `register` itself.
 */
export function taskKeyProblem(key: unknown): string | null {
  if (typeof key !== "string" || !keyPattern.test(key)) {
    return `registerAuxiliaryTask: "${String(key)}" is not a valid task key; it must match ${AUXILIARY_TASK_PATTERN}.`;
  }
  if (isBuiltinTask(key) || (RESERVED_TASK_KEYS as readonly string[]).includes(key)) {
    return `registerAuxiliaryTask: "${key}" is reserved for a built-in task; pick another key.`;
  }
  return null;
}

export class AuxiliaryTaskRegistrationError extends Error {
  override readonly name = "AuxiliaryTaskRegistrationError";
}

const defaultKeys = ["provider", "model", "base_url", "timeout", "reasoning_effort", "extra_body"] as const;

/** Keeps only the block keys docs/contract.md §6.2 names, each with the type the config schema allows. */
function readDefaults(key: string, raw: unknown): SlotDefaults {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw new AuxiliaryTaskRegistrationError(
      `registerAuxiliaryTask("${key}"): defaults must be a map such as {provider, model, timeout}.`,
    );
  }
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!(defaultKeys as readonly string[]).includes(name)) {
      throw new AuxiliaryTaskRegistrationError(
        `registerAuxiliaryTask("${key}"): unknown default "${name}"; use ${defaultKeys.join(", ")}.`,
      );
    }
    const ok =
      name === "timeout"
        ? typeof value === "number" && value > 0
        : name === "extra_body"
          ? typeof value === "object" && value !== null && !Array.isArray(value)
          : typeof value === "string";
    if (!ok) {
      throw new AuxiliaryTaskRegistrationError(
        `registerAuxiliaryTask("${key}"): defaults.${name} has the wrong type (${name === "timeout" ? "seconds > 0" : name === "extra_body" ? "a map" : "a string"}).`,
      );
    }
    out[name] = name === "extra_body" ? structuredClone(value) : value;
  }
  return out as SlotDefaults;
}

export type RegistryWarn = (message: string, fields: Record<string, string>) => void;

const MAX_NOTICES = 20;

export class AuxiliaryTaskRegistry {
  private readonly pluginSlots = new Map<string, PluginSlot>();
  private readonly listeners = new Set<() => void>();
  private readonly recentWarnings: string[] = [];
  private readonly warn: RegistryWarn;

  /** `warn` also reaches the user: the last warnings are `notices()` (host.info shows them). */
  constructor(warn: RegistryWarn = () => undefined) {
    this.warn = (message, fields) => {
      const notice = `Plugin '${fields.plugin}', auxiliary task "${fields.task}": ${message}.`;
      if (!this.recentWarnings.includes(notice)) this.recentWarnings.push(notice);
      if (this.recentWarnings.length > MAX_NOTICES) this.recentWarnings.shift();
      warn(message, fields);
    };
  }

  /** Warnings from registrations (an unknown base, a cycle refused), for the UI's notices. */
  notices(): { kind: "auxiliary_task"; message: string }[] {
    return this.recentWarnings.map((message) => ({ kind: "auxiliary_task", message }));
  }

  /**
   * docs/contract.md §6.3: key rules with their exact errors; the same plugin registering again replaces its
   * entry; a base that is unknown, itself or would close a cycle warns and is dropped.
   */
  register(pluginId: string, key: unknown, spec: AuxiliaryTaskSpec | undefined): void {
    const problem = taskKeyProblem(key);
    if (problem !== null || typeof key !== "string") throw new AuxiliaryTaskRegistrationError(problem ?? "");
    const existing = this.pluginSlots.get(key);
    if (existing && existing.pluginId !== pluginId) {
      throw new AuxiliaryTaskRegistrationError(
        `registerAuxiliaryTask: "${key}" is already registered by plugin '${existing.pluginId}'.`,
      );
    }
    if (spec !== undefined && (typeof spec !== "object" || spec === null)) {
      throw new AuxiliaryTaskRegistrationError(
        `registerAuxiliaryTask("${key}") needs {displayName, description, defaults, inheritFrom}.`,
      );
    }
    const defaults = readDefaults(key, spec?.defaults);
    const slot: PluginSlot = {
      kind: "plugin",
      pluginId,
      key,
      label: typeof spec?.displayName === "string" && spec.displayName.trim() ? spec.displayName.trim() : key,
      description: typeof spec?.description === "string" ? spec.description : "",
      defaults,
      inheritFrom: this.checkedBase(pluginId, key, spec?.inheritFrom),
    };
    this.pluginSlots.set(key, slot);
    this.changed();
  }

  private checkedBase(pluginId: string, key: string, raw: unknown): string | null {
    if (raw === undefined || raw === null || raw === "") return null;
    const fields = { plugin: pluginId, task: key, inherit_from: String(raw) };
    if (raw === key) {
      this.warn(`inheritFrom names the task itself; registered without inheritance`, fields);
      return null;
    }
    if (typeof raw !== "string" || (!isBuiltinTask(raw) && !this.pluginSlots.has(raw))) {
      this.warn(
        `inheritFrom "${String(raw)}" is not a registered auxiliary task; registered without inheritance`,
        fields,
      );
      return null;
    }
    if (this.chainOf(raw).includes(key)) {
      this.warn(
        `inheritFrom "${raw}" would close an inheritance cycle; registered without inheritance`,
        fields,
      );
      return null;
    }
    return raw;
  }

  /** The keys from `key` up through its bases; stops at a repeat, so it never loops. */
  chainOf(key: string): string[] {
    const chain: string[] = [];
    let next: string | null = key;
    while (next !== null && !chain.includes(next)) {
      chain.push(next);
      const slot = this.pluginSlots.get(next);
      next = slot ? slot.inheritFrom : null;
    }
    return chain;
  }

  /** Everything the plugin registered leaves every surface; its config blocks stay. */
  removePlugin(pluginId: string): void {
    let removed = false;
    for (const [key, slot] of this.pluginSlots) {
      if (slot.pluginId === pluginId) {
        this.pluginSlots.delete(key);
        removed = true;
      }
    }
    if (removed) this.changed();
  }

  /** Built-ins in docs/contract.md §6.2 order, then plugin slots sorted by key. */
  list(): SlotDefinition[] {
    const builtins: SlotDefinition[] = BUILTIN_SLOTS.map((s) => ({ kind: "builtin" as const, ...s }));
    const plugin = [...this.pluginSlots.values()].sort((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
    );
    return [...builtins, ...plugin];
  }

  keys(): string[] {
    return this.list().map((slot) => slot.key);
  }

  get(key: string): SlotDefinition | undefined {
    if (isBuiltinTask(key)) {
      const builtin = BUILTIN_SLOTS.find((s) => s.key === key)!;
      return { kind: "builtin", ...builtin };
    }
    return this.pluginSlots.get(key);
  }

  /** Whether `pluginId` registered `key` itself (the `ctx.llm` `task` rule, docs/contract.md §6.6). */
  owns(pluginId: string, key: string): boolean {
    return this.pluginSlots.get(key)?.pluginId === pluginId;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A listener's failure must not undo a registration.
      }
    }
  }
}
