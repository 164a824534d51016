/**
 * The chat's own settings: how a message sent during a reply behaves (`display.busy_input_mode`)
 * and the memory note every new session's system prompt includes (`memory.note`), with its
 * unsaved draft.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { HermesClient } from "../api/client.js";
import { describeError } from "../api/rpc-error.js";
import { busyInputModes, type BusyInputMode } from "./chat-model.js";
import { failedRefresh, latestOnly, loading, ready, type Loadable } from "./loadable.js";

export type Theme = "system" | "light" | "dark";
export const themes: readonly Theme[] = ["system", "light", "dark"];

export interface ChatSettings {
  busyInputMode: BusyInputMode;
  memoryNote: string;
  theme: Theme;
  /** `memory.nudge_interval`: a background review every N person turns; 0 = off. */
  memoryReviewInterval: number;
}

export interface ChatSettingsState {
  settings: Loadable<ChatSettings>;
  load(): Promise<void>;
  /** Rejects with the host's error; the page shows it. */
  save<K extends keyof ChatSettings>(field: K, value: ChatSettings[K]): Promise<void>;
  /**
   * Memory note text typed but not saved, kept while the person visits other pages so leaving
   * Settings → Memory loses nothing; null when there is none.
   */
  memoryDraft: string | null;
  setMemoryDraft(text: string | null): void;
}

const settingKeys: Record<keyof ChatSettings, string> = {
  busyInputMode: "display.busy_input_mode",
  memoryNote: "memory.note",
  theme: "display.theme",
  memoryReviewInterval: "memory.nudge_interval",
};

const block = (settings: Record<string, unknown>, name: string): Record<string, unknown> => {
  const value = settings[name];
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
};

/** Reads the two settings out of the settings document, falling back to the defaults. */
export function chatSettingsFrom(settings: Record<string, unknown>): ChatSettings {
  const mode = block(settings, "display")["busy_input_mode"];
  const note = block(settings, "memory")["note"];
  const theme = block(settings, "display")["theme"];
  const interval = block(settings, "memory")["nudge_interval"];
  return {
    memoryReviewInterval: typeof interval === "number" && interval >= 0 ? interval : 10,
    theme: themes.includes(theme as Theme) ? (theme as Theme) : "system",
    busyInputMode: busyInputModes.includes(mode as BusyInputMode) ? (mode as BusyInputMode) : "queue",
    memoryNote: typeof note === "string" ? note : "",
  };
}

export function createChatSettingsStore(client: HermesClient): StoreApi<ChatSettingsState> {
  const nextLoad = latestOnly();
  return createStore<ChatSettingsState>()((set, get) => ({
    settings: loading(),
    memoryDraft: null,
    setMemoryDraft(text) {
      set({ memoryDraft: text });
    },
    async load() {
      const isLatest = nextLoad();
      try {
        const settings = await client.call("settings.get", {});
        if (isLatest()) set({ settings: ready(chatSettingsFrom(settings)) });
      } catch (err) {
        if (isLatest()) set({ settings: failedRefresh(get().settings, describeError(err)) });
      }
    },
    async save(field, value) {
      await client.call("settings.set", { key: settingKeys[field], value });
      nextLoad();
      const current = get().settings;
      const base = current.kind === "ready" ? current.data : chatSettingsFrom({});
      set({ settings: ready({ ...base, [field]: value }) });
    },
  }));
}
