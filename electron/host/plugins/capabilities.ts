/** Capability ids (SPEC §7.1) and how a grant is read: at each use, never cached. */
import { createHash } from "node:crypto";
import type { CapabilityId } from "../../../plugins/sdk/types.js";
import type { PluginEntryDocument } from "../config/config-schema.js";

export const CAPABILITY_IDS: readonly CapabilityId[] = [
  "llm.side_question",
  "llm.session_fork",
  "llm.provider_override",
  "llm.model_override",
  "llm.task_override",
];

export const isCapabilityId = (id: string): id is CapabilityId =>
  (CAPABILITY_IDS as readonly string[]).includes(id);

/** The override capabilities are gated by their `llm.allow_*` flag, not by a consent grant. */
const overrideFlags = {
  "llm.provider_override": "allow_provider_override",
  "llm.model_override": "allow_model_override",
  "llm.task_override": "allow_task_override",
} as const;

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
  if (id in overrideFlags) {
    const flag = overrideFlags[id as keyof typeof overrideFlags];
    return entry?.llm?.[flag] === true;
  }
  const granted = entry?.granted_capabilities;
  return declared.includes(id) && Array.isArray(granted) && granted.includes(id);
}

/** sha256 of the sorted declared ids joined by newlines (SPEC §7.2). */
export function capabilitiesHash(declared: readonly string[]): string {
  return createHash("sha256")
    .update([...declared].sort().join("\n"))
    .digest("hex");
}

/** Declared capabilities the user has not been asked about since the declared set changed. */
export function pendingCapabilities(
  declared: readonly string[],
  entry: PluginEntryDocument | undefined,
): string[] {
  if (declared.length === 0) return [];
  if (entry?.capabilities_consent?.hash === capabilitiesHash(declared)) return [];
  const granted = new Set(entry?.granted_capabilities ?? []);
  return declared.filter((id) => !granted.has(id));
}
