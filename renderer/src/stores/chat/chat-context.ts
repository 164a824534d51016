/** Typed hooks to select from the chat's stores (see stores-context.tsx for the app's). */
import { useStore } from "zustand";
import type { ChatSettingsState } from "./chat-settings-store.js";
import type { ComposerState } from "./composer-store.js";
import type { NextPromptState } from "./next-prompt-store.js";
import type { SessionsState } from "./session-list-store.js";
import { useStores } from "../stores-context.js";
import type { TranscriptState } from "./transcript-store.js";

export const useSessions = <T>(selector: (state: SessionsState) => T): T =>
  useStore(useStores().chat.sessions, selector);
export const useTranscript = <T>(selector: (state: TranscriptState) => T): T =>
  useStore(useStores().chat.transcript, selector);
export const useComposer = <T>(selector: (state: ComposerState) => T): T =>
  useStore(useStores().chat.composer, selector);
export const useChatSettings = <T>(selector: (state: ChatSettingsState) => T): T =>
  useStore(useStores().chat.chatSettings, selector);
export const useNextPrompt = <T>(selector: (state: NextPromptState) => T): T =>
  useStore(useStores().chat.nextPrompt, selector);
