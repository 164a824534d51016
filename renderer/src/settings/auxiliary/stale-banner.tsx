/**
 * The stale banner (docs/contract.md §6.5): auxiliary tasks pinned to a provider that is not the main one,
 * named by their labels and the provider's display name, with its own Reset all to main. Shown on
 * the Auxiliary tab and on the Main tab, so switching the main model says which pins it left.
 */
import { RotateCcw } from "lucide-react";
import { useState } from "react";
import type { AuxiliaryTaskRow } from "../../../../electron/host/rpc/methods/model.js";
import { describeError } from "../../api/rpc-error.js";
import { selectProviderList } from "../../stores/settings/providers-store.js";
import { useAuxiliary, useProviders } from "../../stores/stores-context.js";
import { Button } from "../../ui/button.js";
import { refocusIfLost } from "../../app/focus-rescue.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { staleBannerText } from "./route-words.js";

export function StaleBanner({ rows }: { rows: readonly AuxiliaryTaskRow[] }) {
  const providers = useProviders(selectProviderList);
  const banner = staleBannerText(rows, (id) => providers.find((p) => p.id === id)?.name ?? id);
  if (!banner) return null;
  return (
    <div className="aux-stale-banner" role="status" data-testid="aux-stale-banner">
      <p>{banner}</p>
      <ResetAllButton />
    </div>
  );
}

/** The header's Reset all: where the focus goes when the banner's goes away with the banner. */
const headerResetAll = () => document.querySelector<HTMLButtonElement>("[data-action=reset-all]");

export function ResetAllButton({
  label = "Reset all to main",
  header = false,
}: {
  label?: string;
  header?: boolean;
}) {
  const resetAll = useAuxiliary((s) => s.resetAll);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <Button
        size="sm"
        data-action={header ? "reset-all" : undefined}
        icon={<RotateCcw size={14} aria-hidden="true" />}
        busy={busy}
        disabled={busy}
        onClick={async (event) => {
          const self = event.currentTarget;
          setBusy(true);
          setError(null);
          try {
            await resetAll();
            // Disabled while it worked (or gone with the banner): the focus comes back here or to the header's.
            refocusIfLost(() => self, headerResetAll);
          } catch (err) {
            setError(describeError(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        {label}
      </Button>
      {error ? <InlineAlert>{error}</InlineAlert> : null}
    </>
  );
}
