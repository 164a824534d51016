/** "Remove <name>?": the confirmation before a provider and its stored key are deleted. */
import type { ProviderView } from "../../../../electron/host/rpc/methods/providers.js";
import { ConfirmRemoveDialog } from "../../ui/confirm-remove-dialog.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { useAuxiliary, useProviders } from "../../stores/stores-context.js";

export function RemoveProviderDialog({
  provider,
  onClose,
}: {
  provider: ProviderView | null;
  onClose(): void;
}) {
  const remove = useProviders((s) => s.remove);
  const auxiliary = useAuxiliary((s) => s.tasks);
  // Side tasks pinned to this provider: removing it breaks those pins, so say which before.
  const pinned =
    provider && auxiliary.kind === "ready"
      ? auxiliary.data.filter(
          (row) => row.source === "pin" && row.provider.toLowerCase() === provider.id.toLowerCase(),
        )
      : [];
  return (
    <ConfirmRemoveDialog
      open={provider !== null}
      title={provider ? `Remove ${provider.name}?` : "Remove provider?"}
      description={
        provider?.hasKey
          ? "Hermes Desktop forgets this provider and deletes its key from your system keychain. If it was your main model's provider, pick another one."
          : "Hermes Desktop forgets this provider. If it was your main model's provider, pick another one."
      }
      onRemove={async () => {
        if (provider) await remove(provider.id);
      }}
      onClose={onClose}
    >
      {pinned.length > 0 ? (
        <InlineAlert tone="warning">
          {pinned.length === 1 ? "The auxiliary task" : `${pinned.length} auxiliary tasks`}{" "}
          {pinned.map((row) => row.label).join(", ")} {pinned.length === 1 ? "is" : "are"} pinned to{" "}
          {provider?.name}. Removing it breaks {pinned.length === 1 ? "that pin" : "those pins"}: reset{" "}
          {pinned.length === 1 ? "it" : "them"} in Settings → Models → Auxiliary, or pin another provider.
        </InlineAlert>
      ) : null}
    </ConfirmRemoveDialog>
  );
}
