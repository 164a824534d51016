/** Settings → General: app-wide things that are no one page's, starting with the Hermes import. */
import { HermesImportPanel } from "./hermes-import-panel.js";
import { SettingsPage } from "./settings-page.js";

export function GeneralPage() {
  return (
    <SettingsPage headingId="general-heading" title="General" description="Hermes Desktop as a whole.">
      <HermesImportPanel />
    </SettingsPage>
  );
}
