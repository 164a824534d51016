/** Settings: the section picked in the sidebar's Settings navigation. */
import { useNavigation } from "../stores/stores-context.js";
import { selectSettingsSection } from "../stores/navigation-store.js";
import { AppearancePage } from "./appearance-page.js";
import { ChatSettingsPage } from "./chat-settings-page.js";
import { GeneralPage } from "./general-page.js";
import { MemoryPage } from "./memory-page.js";
import { ModelsPage } from "./models-page.js";
import { PluginsPage } from "./plugins/plugins-page.js";
import { ProvidersPage } from "./providers-page.js";

export function SettingsView() {
  const section = useNavigation(selectSettingsSection);
  return (
    <div className="settings-scroll">
      {section === "models" ? (
        <ModelsPage />
      ) : section === "plugins" ? (
        <PluginsPage />
      ) : section === "chat" ? (
        <ChatSettingsPage />
      ) : section === "memory" ? (
        <MemoryPage />
      ) : section === "general" ? (
        <GeneralPage />
      ) : section === "appearance" ? (
        <AppearancePage />
      ) : (
        <ProvidersPage />
      )}
    </div>
  );
}
