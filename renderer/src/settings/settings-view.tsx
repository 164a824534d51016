/** Settings: the section picked in the sidebar's Settings navigation. */
import { useNavigation } from "../stores/stores-context.js";
import { selectSettingsSection } from "../stores/navigation-store.js";
import { ModelsPage } from "./models-page.js";
import { ProvidersPage } from "./providers-page.js";

export function SettingsView() {
  const section = useNavigation(selectSettingsSection);
  return <div className="settings-scroll">{section === "models" ? <ModelsPage /> : <ProvidersPage />}</div>;
}
