/**
 * The capability registry (docs/contract.md §7.1) and how a grant is read: at each use, never cached, from the
 * raw config document, where anything unreadable reads as not granted (§7.2).
 *
 * - `llm.side_question` / `llm.session_fork` gate `ctx.sideQuestion` / `ctx.forkSession`: held when
 *   the manifest declares them and `granted_capabilities` lists them.
 * - The override capabilities mirror the legacy `llm.allow_*` flags: a grant writes both, and
 *   either opens the gate (a hand-set flag keeps working without a manifest declaration).
 */
import { createHash } from "node:crypto";
import type { CapabilityId } from "../../../../plugins/sdk/types.js";
import type { PluginEntryDocument, PluginLlmPolicy } from "../../config/config-schema.js";
import { CAPABILITY_WORDS } from "../../rpc/shared-rules/capability-text.js";

export const CAPABILITY_IDS: readonly CapabilityId[] = [
  "llm.side_question",
  "llm.session_fork",
  "llm.provider_override",
  "llm.model_override",
  "llm.task_override",
];

/** The consent screen's text for each capability, exactly as docs/contract.md §7.1 words it. */
export const CAPABILITY_TEXT: Readonly<Record<CapabilityId, string>> = Object.fromEntries(
  CAPABILITY_IDS.map((id) => [id, CAPABILITY_WORDS[id].description]),
) as Record<CapabilityId, string>;

export const isCapabilityId = (id: unknown): id is CapabilityId =>
  typeof id === "string" && (CAPABILITY_IDS as readonly string[]).includes(id);

/** The legacy `plugins.entries.<id>.llm` flag each override capability mirrors. */
export const OVERRIDE_FLAGS = {
  "llm.provider_override": "allow_provider_override",
  "llm.model_override": "allow_model_override",
  "llm.task_override": "allow_task_override",
} as const satisfies Partial<Record<CapabilityId, keyof PluginLlmPolicy>>;

export type OverrideCapability = keyof typeof OVERRIDE_FLAGS;

export const isOverrideCapability = (id: string): id is OverrideCapability => id in OVERRIDE_FLAGS;

/** `granted_capabilities` as far as it is readable: known ids only; a non-list reads as none. */
export function readGranted(entry: PluginEntryDocument | undefined): CapabilityId[] {
  const raw: unknown = entry?.granted_capabilities;
  if (!Array.isArray(raw)) return [];
  return CAPABILITY_IDS.filter((id) => raw.includes(id));
}

/** The stored consent hash when it is a well-formed sha256, else null (never decided). */
export function readConsentHash(entry: PluginEntryDocument | undefined): string | null {
  const consent: unknown = entry?.capabilities_consent;
  if (!consent || typeof consent !== "object") return null;
  const hash = (consent as { hash?: unknown }).hash;
  return typeof hash === "string" && /^[0-9a-f]{64}$/.test(hash) ? hash : null;
}

function overrideFlagSet(entry: PluginEntryDocument | undefined, id: OverrideCapability): boolean {
  const llm: unknown = entry?.llm;
  if (!llm || typeof llm !== "object") return false;
  return (llm as Record<string, unknown>)[OVERRIDE_FLAGS[id]] === true;
}

/**
 * Whether the user granted `id` to the plugin. Consent-gated capabilities must also be declared
 * in the manifest; anything malformed reads as not granted.
 */
export function isCapabilityGranted(
  id: string,
  declared: readonly string[],
  entry: PluginEntryDocument | undefined,
): boolean {
  if (!isCapabilityId(id)) return false;
  const listed = readGranted(entry).includes(id);
  if (isOverrideCapability(id)) return overrideFlagSet(entry, id) || listed;
  return declared.includes(id) && listed;
}

/**
 * The plugin's `llm` policy as the trust gate reads it: the legacy flags, each also opened by the
 * matching override capability in `granted_capabilities` (either opens the gate).
 */
export function effectiveLlmPolicy(
  entry: PluginEntryDocument | undefined,
): Partial<PluginLlmPolicy> | undefined {
  const granted = readGranted(entry).filter(isOverrideCapability);
  const llm = entry?.llm && typeof entry.llm === "object" ? entry.llm : undefined;
  if (granted.length === 0) return llm;
  const policy: Partial<PluginLlmPolicy> = { ...llm };
  for (const id of granted) policy[OVERRIDE_FLAGS[id]] = true;
  return policy;
}

/** sha256 of the sorted declared ids joined by newlines (docs/contract.md §7.2). */
export function capabilitiesHash(declared: readonly string[]): string {
  return createHash("sha256")
    .update([...declared].sort().join("\n"))
    .digest("hex");
}

/**
 * The declared set the stored hash was computed from, found among the subsets of the known ids
 * (there are 32): what the user was asked about last time, so a declined one is not asked again.
 */
function previouslyDeclared(hash: string): CapabilityId[] | null {
  const ids = [...CAPABILITY_IDS];
  for (let mask = 0; mask < 1 << ids.length; mask++) {
    const subset = ids.filter((_, bit) => mask & (1 << bit));
    if (capabilitiesHash(subset) === hash) return subset;
  }
  return null;
}

/**
 * Declared capabilities awaiting the user's answer: none when the stored hash matches the declared
 * set; after an update, only the ones new since the last answer (neither granted nor asked then).
 */
export function pendingCapabilities(
  declared: readonly string[],
  entry: PluginEntryDocument | undefined,
): string[] {
  if (declared.length === 0) return [];
  const hash = readConsentHash(entry);
  if (hash === capabilitiesHash(declared)) return [];
  const granted = new Set<string>(readGranted(entry));
  for (const id of CAPABILITY_IDS) if (isCapabilityGranted(id, declared, entry)) granted.add(id);
  const askedBefore = new Set<string>(hash ? (previouslyDeclared(hash) ?? []) : []);
  return declared.filter((id) => !granted.has(id) && !askedBefore.has(id));
}
