/** Settings: the section picked in the sidebar's Settings navigation. */
import { useNavigation } from "../stores/stores-context.js";
import { selectSettingsSection } from "../stores/navigation-store.js";
import { AppearancePage } from "./appearance-page.js";
import { ChatSettingsPage } from "./chat/chat-settings-page.js";
import { GeneralPage } from "./general-page.js";
import { McpPage } from "./mcp/mcp-page.js";
import { MemoryPage } from "./chat/memory-page.js";
import { ModelsPage } from "./models/models-page.js";
import { PluginsPage } from "./plugins/plugins-page.js";
import { ProvidersPage } from "./providers/providers-page.js";

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
      ) : section === "mcp" ? (
        <McpPage />
      ) : section === "appearance" ? (
        <AppearancePage />
      ) : (
        <ProvidersPage />
      )}
    </div>
  );
}
