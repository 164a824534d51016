/**
 * What a new session freezes from the settings of the moment (docs/contract.md §9.1): the main model, the
 * system prompt with the Memory note, prefill messages and the ephemeral system prompt. The
 * config has no prefill or ephemeral prompt keys yet, so those start empty.
 */
import type { Settings } from "../../../config/config-schema.js";
import type { SessionSnapshot } from "../types.js";

export const MEMORY_HEADING = "Memory (notes the user wants you to keep in mind):";

export function snapshotOf(settings: Settings): SessionSnapshot {
  const note = settings.memory.note.trim();
  const systemPrompt = [settings.chat.system_prompt.trim(), note ? `${MEMORY_HEADING}\n${note}` : ""]
    .filter(Boolean)
    .join("\n\n");
  return {
    mainRoute: { provider: settings.model.provider ?? "", model: settings.model.model ?? "" },
    systemPrompt,
    prefillMessages: [],
    ephemeralSystemPrompt: null,
  };
}
