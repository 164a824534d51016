/** The app shell: sidebar, banners, the current screen, and the app-wide provider dialog. */
import { ChatView } from "../chat/chat-view.js";
import { ConsentDialog } from "../settings/plugins/consent-dialog.js";
import { ProviderDialog } from "../settings/provider-dialog.js";
import { deferredComponent } from "./deferred-component.js";
import { selectPluginPage } from "../stores/navigation-store.js";
import { useNavigation } from "../stores/stores-context.js";
import { ConnectionBanner } from "./connection-banner.js";
import { Notices } from "./notices.js";
import { KeyboardShortcuts } from "./keyboard-shortcuts.js";
import { Sidebar } from "./sidebar.js";
import { ThemeSync } from "./theme-sync.js";

// Screens the first paint doesn't show load on first use (preloaded once the shell is up).
const SettingsView = deferredComponent(() =>
  import("../settings/settings-view.js").then((m) => m.SettingsView),
);
const PluginPageView = deferredComponent(() =>
  import("../plugins/plugin-page-view.js").then((m) => m.PluginPageView),
);
export const preloadScreens = () => Promise.all([SettingsView.preload(), PluginPageView.preload()]);

export function App() {
  const screen = useNavigation((s) => s.screen.name);
  const pluginPage = useNavigation(selectPluginPage);
  return (
    <div className="app">
      <Sidebar />
      <main className="content">
        <ConnectionBanner />
        <Notices />
        {pluginPage ? (
          <PluginPageView key={`${pluginPage.pluginId}/${pluginPage.pageId}`} {...pluginPage} />
        ) : screen === "chat" ? (
          <ChatView />
        ) : (
          <SettingsView />
        )}
      </main>
      <ProviderDialog />
      <ConsentDialog />
      <KeyboardShortcuts />
      <ThemeSync />
    </div>
  );
}
