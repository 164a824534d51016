/** Settings → Models: one tab per kind of slot (Main now; Auxiliary comes later). */
import * as Tabs from "@radix-ui/react-tabs";
import { MainModelPanel } from "./main-model-panel.js";
import { SettingsPageHeader } from "./settings-page-header.js";

export function ModelsPage() {
  return (
    <section className="settings-page" aria-labelledby="models-heading">
      <SettingsPageHeader
        headingId="models-heading"
        title="Models"
        description="Which model chat uses. Side tasks follow it unless you pin them."
      />
      <Tabs.Root defaultValue="main" className="tabs">
        <Tabs.List className="tabs-list" aria-label="Model slots">
          <Tabs.Trigger value="main" className="tabs-trigger">
            Main
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="main" className="tabs-content">
          <MainModelPanel />
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}
