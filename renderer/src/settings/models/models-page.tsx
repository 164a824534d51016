/** Settings → Models: one tab per kind of slot — Main, and Auxiliary (docs/contract.md §6.5). */
import * as Tabs from "@radix-ui/react-tabs";
import { AuxiliaryPanel } from "../auxiliary/auxiliary-panel.js";
import { MainModelPanel } from "./main-model-panel.js";
import { SettingsPage } from "../settings-page.js";

export function ModelsPage() {
  return (
    <SettingsPage
      headingId="models-heading"
      title="Models"
      description="Which model chat uses. Side tasks follow it unless you pin them."
    >
      <Tabs.Root defaultValue="main" className="tabs">
        <Tabs.List className="tabs-list" aria-label="Model slots">
          <Tabs.Trigger value="main" className="tabs-trigger">
            Main
          </Tabs.Trigger>
          <Tabs.Trigger value="auxiliary" className="tabs-trigger">
            Auxiliary
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="main" className="tabs-content">
          <MainModelPanel />
        </Tabs.Content>
        <Tabs.Content value="auxiliary" className="tabs-content">
          <AuxiliaryPanel />
        </Tabs.Content>
      </Tabs.Root>
    </SettingsPage>
  );
}
