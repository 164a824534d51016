/** Settings → Providers: the configured endpoints, with loading, empty and error states. */
import { Plus, Server } from "lucide-react";
import { useState } from "react";
import type { ProviderView } from "../../../../electron/host/rpc/methods/providers.js";
import { Button } from "../../ui/button.js";
import { EmptyState } from "../../ui/empty-state.js";
import { DismissibleAlert, InlineAlert } from "../../ui/inline-alert.js";
import { selectKeychainProblem } from "../../stores/host-store.js";
import { useHost, useMainModel, useNavigation, useProviders } from "../../stores/stores-context.js";
import { selectCurrentMainModel } from "../../stores/settings/main-model-store.js";
import { LocalServersPanel } from "./local-servers-panel.js";
import { ProviderRow } from "./provider-row.js";
import { RemoveProviderDialog } from "./remove-provider-dialog.js";
import { SettingsList } from "../settings-list.js";
import { SettingsPage } from "../settings-page.js";

export function ProvidersPage() {
  const providers = useProviders((s) => s.providers);
  const reload = useProviders((s) => s.load);
  const openAdd = useNavigation((s) => s.openAddProvider);
  const openEdit = useNavigation((s) => s.openEditProvider);
  const mainProvider = useMainModel((s) => selectCurrentMainModel(s)?.provider ?? null);
  const [removing, setRemoving] = useState<ProviderView | null>(null);
  const keychainProblem = useHost(selectKeychainProblem);
  const removeNotice = useProviders((s) => s.removeNotice);
  const clearRemoveNotice = useProviders((s) => s.clearRemoveNotice);

  const hasProviders = providers.kind === "ready" && providers.data.length > 0;
  // Exactly one "Add provider" button on the page: in the header, or in the empty state.
  const addButton = (
    <Button variant="primary" icon={<Plus size={16} aria-hidden="true" />} onClick={openAdd}>
      Add provider
    </Button>
  );

  return (
    <SettingsPage
      headingId="providers-heading"
      title="Providers"
      description="OpenAI-compatible endpoints Hermes Desktop can talk to. Keys stay in your system keychain."
      action={hasProviders ? addButton : null}
    >
      {keychainProblem ? (
        <div className="settings-page-alert">
          <InlineAlert tone="warning">{keychainProblem}</InlineAlert>
        </div>
      ) : null}
      {removeNotice ? (
        <div className="settings-page-alert">
          <DismissibleAlert tone="warning" onDismiss={clearRemoveNotice}>
            {removeNotice}
          </DismissibleAlert>
        </div>
      ) : null}
      <SettingsList
        value={providers}
        loadingText="Loading providers…"
        failureText="Couldn't load your providers"
        onRetry={reload}
        empty={
          <EmptyState icon={<Server size={20} />} title="No providers yet" action={addButton}>
            Add OpenRouter, OpenAI, or a local server such as llama.cpp or Ollama to start chatting.
          </EmptyState>
        }
        renderRow={(provider) => (
          <ProviderRow
            provider={provider}
            isMain={provider.id === mainProvider}
            onEdit={() => openEdit(provider.id)}
            onAddKey={() => openEdit(provider.id)}
            onRemove={() => setRemoving(provider)}
          />
        )}
      />
      <LocalServersPanel />
      <RemoveProviderDialog provider={removing} onClose={() => setRemoving(null)} />
    </SettingsPage>
  );
}
