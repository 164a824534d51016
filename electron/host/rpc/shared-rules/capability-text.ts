/**
 * What each plugin capability lets a plugin do (docs/contract.md §7.1), in the words the consent screen
 * shows, with a short name for lists. One home for the host (which guards the words) and the
 * renderer (which shows them).
 */

/** The ids of docs/contract.md §7.1; the SDK's `CapabilityId` must be this same set (the host indexes this table by it). */
export type ContractCapabilityId =
  | "llm.side_question"
  | "llm.session_fork"
  | "llm.provider_override"
  | "llm.model_override"
  | "llm.task_override";

export interface CapabilityWords {
  /** A short name, for lists (Settings → Plugins). */
  label: string;
  /** The consent screen's text, exactly as docs/contract.md §7.1 words it. */
  description: string;
}

export const CAPABILITY_WORDS: Readonly<Record<ContractCapabilityId, CapabilityWords>> = {
  "llm.side_question": {
    label: "Side questions",
    description:
      "Ask your agent a short question after each turn. It sees the whole session, including memory, and spends your main model's tokens.",
  },
  "llm.session_fork": {
    label: "Background agent runs",
    description:
      "Run a background copy of your agent after a turn. It sees the whole session, including memory, can use the plugin's own tools, and spends your main model's tokens.",
  },
  "llm.provider_override": {
    label: "Choose the provider",
    description: "Run its LLM calls on a provider other than your active one (uses your credentials).",
  },
  "llm.model_override": {
    label: "Choose the model",
    description: "Choose which model its LLM calls use (spend follows the chosen model).",
  },
  "llm.task_override": {
    label: "Use auxiliary slots",
    description: "Route its LLM calls through the app's built-in auxiliary slots.",
  },
};
