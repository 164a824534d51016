/**
 * Suggested next messages from the bundled `next-prompt` plugin: the session event
 * `plugin.next-prompt.suggestion` {text} per chat, shown as a chip above the message box until the
 * chat's next turn starts (then it is about an older reply) or the person uses or dismisses it.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { HostEvent } from "../api/client.js";

export const SUGGESTION_EVENT = "plugin.next-prompt.suggestion";

export interface NextPromptState {
  /** By session id. */
  suggestions: Readonly<Record<string, string>>;
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
      handleEvent(event) {
        if (event.session_id === null) return;
        if (event.type === "session.turn.started") return without(event.session_id);
        if (event.type !== SUGGESTION_EVENT) return;
        const text = (event.payload as { text?: unknown }).text;
        if (typeof text !== "string" || text.trim() === "") return;
        set({ suggestions: { ...get().suggestions, [event.session_id]: text.trim() } });
      },
      dismiss: without,
    };
  });
}
