/**
 * Suggested next messages from the bundled `next-prompt` plugin: its session event
 * `plugin.next-prompt.suggestion` {text} per chat, shown as a chip above the message box until the
 * chat's next turn starts (then it is about an older reply) or the person uses or dismisses it.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { HostEvent, PluginEvent } from "../../api/client.js";

export const SUGGESTION_PLUGIN = "next-prompt";
export const SUGGESTION_EVENT = "suggestion";

export interface NextPromptState {
  /** By session id. */
  suggestions: Readonly<Record<string, string>>;
  /** `plugin.next-prompt.suggestion` sets the chat's suggestion. */
  handlePluginEvent(event: PluginEvent): void;
  /** A turn that starts makes the chat's suggestion stale. */
  handleEvent(event: HostEvent): void;
  dismiss(sessionId: string): void;
}

export function createNextPromptStore(): StoreApi<NextPromptState> {
  return createStore<NextPromptState>()((set, get) => {
    const without = (sessionId: string) => {
      if (!(sessionId in get().suggestions)) return;
      const next = { ...get().suggestions };
      delete next[sessionId];
      set({ suggestions: next });
    };
    return {
      suggestions: {},
      handlePluginEvent(event) {
        if (event.pluginId !== SUGGESTION_PLUGIN || event.event !== SUGGESTION_EVENT) return;
        const text = event.payload.text;
        if (typeof text !== "string" || text.trim() === "") return;
        set({ suggestions: { ...get().suggestions, [event.sessionId]: text.trim() } });
      },
      handleEvent(event) {
        if (event.type === "session.turn.started") without(event.session_id);
      },
      dismiss: without,
    };
  });
}
