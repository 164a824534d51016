/**
 * The chat's own settings: how a message sent during a reply behaves (`display.busy_input_mode`),
 * the theme (`display.theme`) and the memory note every new session's system prompt includes
 * (`memory.note`), with its unsaved draft. The host answers effective values (defaults filled
 * in, already validated), so they are read as they are.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { HermesClient } from "../../api/client.js";
import { describeError } from "../../api/rpc-error.js";
import { saveSetting } from "../../api/settings.js";
import type { BusyInputMode, Settings, Theme } from "../../../../electron/host/rpc/methods/settings.js";
import { failedRefresh, latestOnly, loading, ready, type Loadable } from "../loadable.js";

export type { Theme };

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

const fromSettings = (settings: Settings): ChatSettings => ({
  busyInputMode: settings.display.busy_input_mode,
  memoryNote: settings.memory.note,
  theme: settings.display.theme,
  memoryReviewInterval: settings.memory.nudge_interval,
});

/** Each field's save, with the value this window showed (`base`: another window's change is not lost silently). */
const saveField: {
  [K in keyof ChatSettings]: (
    client: HermesClient,
    value: ChatSettings[K],
    base?: ChatSettings[K],
  ) => Promise<void>;
} = {
  busyInputMode: (client, value, base) => saveSetting(client, "display.busy_input_mode", value, base),
  memoryNote: (client, value, base) => saveSetting(client, "memory.note", value, base),
  theme: (client, value, base) => saveSetting(client, "display.theme", value, base),
  memoryReviewInterval: (client, value, base) => saveSetting(client, "memory.nudge_interval", value, base),
};

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
        if (isLatest()) set({ settings: ready(fromSettings(settings)) });
      } catch (err) {
        if (isLatest()) set({ settings: failedRefresh(get().settings, describeError(err)) });
      }
    },
    async save(field, value) {
      const shown = get().settings;
      await saveField[field](client, value, shown.kind === "ready" ? shown.data[field] : undefined);
      const current = get().settings;
      if (current.kind !== "ready") return get().load();
      nextLoad();
      set({ settings: ready({ ...current.data, [field]: value }) });
    },
  }));
}
