/**
 * What each capability lets a plugin do (docs/contract.md §7.1), in the words the consent screen uses, plus a
 * short name for lists. Unknown ids (a newer host) fall back to the raw id.
 */
import type { CapabilityId } from "../../../../plugins/sdk/types.js";

export interface CapabilityText {
  label: string;
  description: string;
}

export const capabilityText: Readonly<Record<CapabilityId, CapabilityText>> = {
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

export function describeCapability(id: string): CapabilityText {
  return Object.prototype.hasOwnProperty.call(capabilityText, id)
    ? capabilityText[id as CapabilityId]
    : { label: id, description: "A capability this version of Hermes Desktop does not know." };
}
