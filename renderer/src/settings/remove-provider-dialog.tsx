/** "Remove <name>?": the confirmation before a provider and its stored key are deleted. */
import { useState } from "react";
import type { ProviderView } from "../../../electron/host/rpc/methods/providers.js";
import { describeError } from "../api/rpc-error.js";
import { Button } from "../ui/button.js";
import { Dialog } from "../ui/dialog.js";
import { InlineAlert } from "../ui/inline-alert.js";
import { useAuxiliary, useProviders } from "../stores/stores-context.js";

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
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (removing) return;
    setError(null);
    onClose();
  };

  async function confirm() {
    if (!provider) return;
    setRemoving(true);
    setError(null);
    try {
      await remove(provider.id);
      setRemoving(false);
      onClose();
    } catch (err) {
      setError(describeError(err));
      setRemoving(false);
    }
  }

  return (
    <Dialog
      open={provider !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={provider ? `Remove ${provider.name}?` : "Remove provider?"}
      description={
        provider?.hasKey
          ? "Hermes Desktop forgets this provider and deletes its key from your system keychain. If it was your main model's provider, pick another one."
          : "Hermes Desktop forgets this provider. If it was your main model's provider, pick another one."
      }
      width="sm"
    >
      <div className="dialog-body">
        {pinned.length > 0 ? (
          <InlineAlert tone="warning">
            {pinned.length === 1 ? "The auxiliary task" : `${pinned.length} auxiliary tasks`}{" "}
            {pinned.map((row) => row.label).join(", ")} {pinned.length === 1 ? "is" : "are"} pinned to{" "}
            {provider?.name}. Removing it breaks {pinned.length === 1 ? "that pin" : "those pins"}: reset{" "}
            {pinned.length === 1 ? "it" : "them"} in Settings → Models → Auxiliary, or pin another provider.
          </InlineAlert>
        ) : null}
        {error ? <InlineAlert>{error}</InlineAlert> : null}
        <footer className="dialog-footer">
          <Button variant="ghost" onClick={close} disabled={removing}>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirm} disabled={removing} busy={removing}>
            {removing ? "Removing…" : "Remove"}
          </Button>
        </footer>
      </div>
    </Dialog>
  );
}
