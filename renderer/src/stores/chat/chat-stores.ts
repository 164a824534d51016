/**
 * The chat's stores (sessions, the open transcript, the composer, the chat settings) and their
 * wiring to host events: session events go to the transcript, list changes refresh the sidebar,
 * and a reconnect reloads both (events sent while the socket was down are lost).
 */
import type { StoreApi } from "zustand/vanilla";
import type { HermesClient } from "../../api/client.js";
import { createChatSettingsStore, type ChatSettingsState } from "./chat-settings-store.js";
import { toChatEvent } from "./chat-model.js";
import { createComposerStore, type ComposerState } from "./composer-store.js";
import { createNextPromptStore, type NextPromptState } from "./next-prompt-store.js";
import type { FrameScheduler } from "./frame-batcher.js";
import type { LastChatMemory } from "./last-chat.js";
import { createSessionsStore, type SessionsState } from "./session-list-store.js";
import { createTranscriptStore, type TranscriptState } from "./transcript-store.js";

export interface ChatStores {
  sessions: StoreApi<SessionsState>;
  transcript: StoreApi<TranscriptState>;
  composer: StoreApi<ComposerState>;
  chatSettings: StoreApi<ChatSettingsState>;
  /** Suggested next messages (the `next-prompt` plugin's session events). */
  nextPrompt: StoreApi<NextPromptState>;
}

export interface ChatStoresOptions {
  scheduleFrame?: FrameScheduler;
  undoMs?: number;
  searchDebounceMs?: number;
  lastChat?: LastChatMemory;
}

export function createChatStores(client: HermesClient, options: ChatStoresOptions = {}): ChatStores {
  const transcript = createTranscriptStore(client, {
    ...(options.scheduleFrame ? { scheduleFrame: options.scheduleFrame } : {}),
  });
  const sessions = createSessionsStore(client, {
    onSelect: (id, selectOptions) => void transcript.getState().open(id, selectOptions),
    ...(options.undoMs !== undefined ? { undoMs: options.undoMs } : {}),
    ...(options.searchDebounceMs !== undefined ? { searchDebounceMs: options.searchDebounceMs } : {}),
    ...(options.lastChat ? { lastChat: options.lastChat } : {}),
  });
  return {
    sessions,
    transcript,
    composer: createComposerStore(client, { sessions, transcript }),
    chatSettings: createChatSettingsStore(client),
    nextPrompt: createNextPromptStore(),
  };
}

/** Routes host events to the chat stores; returns the function that stops listening. */
export function connectChatStores(client: HermesClient, stores: ChatStores): () => void {
  let listLoaded = false;
  const stopEvents = client.onEvent((raw) => {
    if (raw.type === "settings.changed") {
      if (stores.chatSettings.getState().settings.kind !== "loading")
        void stores.chatSettings.getState().load();
      return;
    }
    stores.nextPrompt.getState().handleEvent(raw);
    const event = toChatEvent(raw);
    if (!event) return;
    if (event.type === "sessions.changed") {
      if (listLoaded) void stores.sessions.getState().load();
      return;
    }
    if (event.type === "session.title") stores.sessions.getState().applyTitle(event.sessionId, event.title);
    stores.transcript.getState().handleEvent(event);
  });
  // Plugins' session events the chat itself shows (the next-prompt chip).
  const stopPluginEvents = client.onPluginEvent((event) =>
    stores.nextPrompt.getState().handlePluginEvent(event),
  );
  let lastStatus = client.status;
  const stopStatus = client.onStatusChange((status) => {
    if (status === "connected" && lastStatus === "reconnecting" && listLoaded) {
      void stores.sessions.getState().load();
      void stores.transcript.getState().reload();
    }
    lastStatus = status;
  });
  // The list loads when the chat first shows it, not at start-up (settings screens don't need it).
  const stopWatching = stores.sessions.subscribe((state) => {
    if (state.sessions.kind !== "loading") listLoaded = true;
  });
  return () => {
    stopEvents();
    stopPluginEvents();
    stopStatus();
    stopWatching();
  };
}
