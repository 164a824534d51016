/**
 * Where the user is, and which app-wide dialog is open. The screen is mirrored in the address's
 * fragment (app-route.ts), so a reload or the desktop app's next start opens it again.
 */
import { createStore, type StoreApi } from "zustand/vanilla";

export const SETTINGS_SECTIONS = [
  "general",
  "providers",
  "models",
  "chat",
  "memory",
  "appearance",
  "plugins",
  "mcp",
] as const;

export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

export type Screen =
  | { name: "chat" }
  | { name: "settings"; section: SettingsSection }
  /** A plugin's page (docs/contract.md §8), shown with the open chat's session. */
  | { name: "plugin-page"; pluginId: string; pageId: string };

export type ProviderDialog = { mode: "closed" } | { mode: "add" } | { mode: "edit"; providerId: string };

export interface NavigationState {
  screen: Screen;
  providerDialog: ProviderDialog;
  /** "Model for this chat" is open (from its header button, or a reply whose model does not exist). */
  chatModelPickerOpen: boolean;
  setChatModelPickerOpen(open: boolean): void;
  goToChat(): void;
  goToSettings(section?: SettingsSection): void;
  goToPluginPage(pluginId: string, pageId: string): void;
  openAddProvider(): void;
  openEditProvider(providerId: string): void;
  closeProviderDialog(): void;
}

export function createNavigationStore(): StoreApi<NavigationState> {
  return createStore<NavigationState>()((set, get) => ({
    screen: { name: "chat" },
    providerDialog: { mode: "closed" },
    chatModelPickerOpen: false,
    setChatModelPickerOpen: (open) => set({ chatModelPickerOpen: open }),
    goToChat: () => set({ screen: { name: "chat" } }),
    goToSettings: (section) => {
      const current = get().screen;
      const fallback = current.name === "settings" ? current.section : "providers";
      set({ screen: { name: "settings", section: section ?? fallback } });
    },
    goToPluginPage: (pluginId, pageId) => set({ screen: { name: "plugin-page", pluginId, pageId } }),
    openAddProvider: () => set({ providerDialog: { mode: "add" } }),
    openEditProvider: (providerId) => set({ providerDialog: { mode: "edit", providerId } }),
    closeProviderDialog: () => set({ providerDialog: { mode: "closed" } }),
  }));
}

export const selectPluginPage = (state: NavigationState): { pluginId: string; pageId: string } | null =>
  state.screen.name === "plugin-page" ? state.screen : null;

export const selectSettingsSection = (state: NavigationState): SettingsSection | null =>
  state.screen.name === "settings" ? state.screen.section : null;
