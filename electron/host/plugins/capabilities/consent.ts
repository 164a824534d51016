/**
 * The user's answers on the consent screen and revokes in Settings → Plugins (docs/contract.md §7.2), as
 * edits of the config document: `granted_capabilities` (the sorted union of grants, corrupt items
 * dropped) and `capabilities_consent: {hash, granted_at}`. Override capabilities also write their
 * legacy `llm.allow_*` flag. Pure functions over the document: the caller writes it atomically
 * through the settings store and audits the decision.
 */
import type { CapabilityId } from "../../../../plugins/sdk/types.js";
import type { SettingsDocument } from "../../config/config-schema.js";
import {
  OVERRIDE_FLAGS,
  capabilitiesHash,
  isCapabilityId,
  isOverrideCapability,
  readGranted,
} from "./capabilities.js";

/** A consent answer or revoke the app cannot apply; the message says what to fix. */
export class ConsentInputError extends Error {
  override readonly name = "ConsentInputError";
  readonly reason = "invalid_params" as const;
}

/** ISO 8601 to the second, as docs/contract.md §3 shows it (`2026-11-29T10:00:00Z`). */
export const isoSeconds = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

function entryOf(doc: SettingsDocument, pluginId: string) {
  const plugins = (doc.plugins ??= {});
  const entries = (plugins.entries ??= {});
  const entry = (entries[pluginId] ??= {});
  return entry;
}

/** Checks a consent answer against what the plugin declares now; returns the grants, sorted. */
export function validateGrant(pluginId: string, declared: readonly string[], grant: readonly unknown[]) {
  const ids: CapabilityId[] = [];
  for (const id of grant) {
    if (!isCapabilityId(id)) {
      throw new ConsentInputError(
        `"${String(id)}" is not a capability; known ones: llm.side_question, llm.session_fork, llm.provider_override, llm.model_override, llm.task_override.`,
      );
    }
    if (!declared.includes(id)) {
      throw new ConsentInputError(
        `Plugin '${pluginId}' does not declare ${id} (any more); answer for the capabilities it declares now: ${declared.join(", ") || "none"}.`,
      );
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids.sort();
}

/**
 * Records an answer: the granted ids join `granted_capabilities`, the declared set's hash is
 * stored with the time (a decline, `grant` empty, stores it too: the question was answered).
 */
export function applyConsent(
  doc: SettingsDocument,
  pluginId: string,
  declared: readonly string[],
  grant: readonly CapabilityId[],
  now: number,
): void {
  const entry = entryOf(doc, pluginId);
  const union = new Set<CapabilityId>([...readGranted(entry), ...grant]);
  entry.granted_capabilities = [...union].sort();
  entry.capabilities_consent = { hash: capabilitiesHash(declared), granted_at: isoSeconds(now) };
  for (const id of grant) {
    if (!isOverrideCapability(id)) continue;
    // A corrupt `llm` value read as nothing granted; the answer replaces it.
    if (!entry.llm || typeof entry.llm !== "object" || Array.isArray(entry.llm)) entry.llm = {};
    entry.llm[OVERRIDE_FLAGS[id]] = true;
  }
}

/** Takes a grant back (both places for an override capability). */
export function applyRevoke(doc: SettingsDocument, pluginId: string, capability: unknown): CapabilityId {
  if (!isCapabilityId(capability)) {
    throw new ConsentInputError(`"${String(capability)}" is not a capability id; e.g. llm.side_question.`);
  }
  const entry = entryOf(doc, pluginId);
  entry.granted_capabilities = readGranted(entry).filter((id) => id !== capability);
  if (
    isOverrideCapability(capability) &&
    entry.llm &&
    typeof entry.llm === "object" &&
    !Array.isArray(entry.llm)
  ) {
    entry.llm[OVERRIDE_FLAGS[capability]] = false;
  }
  return capability;
}
