/** The app shell: sidebar, banners, the current screen, and the app-wide provider dialog. */
import { ChatView } from "../chat/chat-view.js";
import { ConsentDialog } from "../settings/plugins/consent-dialog.js";
import { ProviderDialog } from "../settings/provider-dialog.js";
import { SettingsView } from "../settings/settings-view.js";
import { PluginPageView } from "../plugins/plugin-page-view.js";
import { selectPluginPage } from "../stores/navigation-store.js";
import { useNavigation } from "../stores/stores-context.js";
import { ConnectionBanner } from "./connection-banner.js";
import { Notices } from "./notices.js";
import { KeyboardShortcuts } from "./keyboard-shortcuts.js";
import { Sidebar } from "./sidebar.js";
import { ThemeSync } from "./theme-sync.js";

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
