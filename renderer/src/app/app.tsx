/** The app shell: sidebar, banners, the current screen, and the app-wide provider dialog. */
import { ChatView, preloadChatScreen } from "../chat/chat-view.js";
import { deferredComponent, MountOnceNeeded } from "../ui/deferred-component.js";
import { selectPluginPage } from "../stores/navigation-store.js";
import { useNavigation, usePlugins } from "../stores/stores-context.js";
import { ConnectionBanner } from "./connection-banner.js";
import { Notices } from "./notices.js";
import { KeyboardShortcuts, preloadShortcutsSheet } from "./keyboard-shortcuts.js";
import { Sidebar } from "./sidebar.js";
import { ThemeSync } from "./theme-sync.js";

// Screens the first paint doesn't show load on first use (preloaded once the shell is up).
const SettingsView = deferredComponent(() =>
  import("../settings/settings-view.js").then((m) => m.SettingsView),
);
const PluginPageView = deferredComponent(() =>
  import("../plugins/plugin-page-view.js").then((m) => m.PluginPageView),
);
// Dialogs closed at the first paint: loaded when first opened (or preloaded), mounted from then on.
const ProviderDialog = deferredComponent(() =>
  import("../settings/providers/provider-dialog.js").then((m) => m.ProviderDialog),
);
const ConsentDialog = deferredComponent(() =>
  import("../settings/plugins/consent-dialog.js").then((m) => m.ConsentDialog),
);
export const preloadScreens = () =>
  Promise.all([
    preloadChatScreen(),
    SettingsView.preload(),
    PluginPageView.preload(),
    ProviderDialog.preload(),
    ConsentDialog.preload(),
    preloadShortcutsSheet(),
  ]);

export function App() {
  const screen = useNavigation((s) => s.screen.name);
  const pluginPage = useNavigation(selectPluginPage);
  const providerDialogOpen = useNavigation((s) => s.providerDialog.mode !== "closed");
  const consentAsked = usePlugins((s) => s.consentQueue.length > 0);
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
      <MountOnceNeeded needed={providerDialogOpen}>
        <ProviderDialog />
      </MountOnceNeeded>
      <MountOnceNeeded needed={consentAsked}>
        <ConsentDialog />
      </MountOnceNeeded>
      <KeyboardShortcuts />
      <ThemeSync />
    </div>
  );
}
