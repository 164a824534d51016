/**
 * Settings → Models → Auxiliary (docs/contract.md §6.5): every slot the host lists — built-ins, then plugin
 * slots — with its route in words, the stale banner, and Reset all to main. Every change is
 * written at once; the next call on the slot uses it.
 */
import { RotateCcw } from "lucide-react";
import { useState } from "react";
import type { AuxiliaryTaskRow } from "../../../../electron/host/rpc/methods/model.js";
import { describeError } from "../../api/rpc-error.js";
import { Button } from "../../ui/button.js";
import { refocusIfLost } from "../../ui/focus-rescue.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { LoadableView } from "../../ui/loadable-view.js";
import { useAuxiliary, useProviders } from "../../stores/stores-context.js";
import { staleBannerText } from "./route-words.js";
import { SlotRow } from "./slot-row.js";

/** The header's Reset all: where the focus goes when the banner's goes away with the banner. */
const headerResetAll = () => document.querySelector<HTMLButtonElement>("[data-action=reset-all]");

function ResetAllButton({
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

function SlotList({ rows }: { rows: AuxiliaryTaskRow[] }) {
  const providers = useProviders((s) => (s.providers.kind === "ready" ? s.providers.data : []));
  const [editing, setEditing] = useState<string | null>(null);
  const banner = staleBannerText(rows);
  return (
    <>
      {banner ? (
        <div className="aux-stale-banner" role="status" data-testid="aux-stale-banner">
          <p>{banner}</p>
          <ResetAllButton />
        </div>
      ) : null}
      <ul className="settings-list" aria-label="Auxiliary tasks">
        {rows.map((row) => (
          <SlotRow
            key={row.task}
            row={row}
            rows={rows}
            providers={providers}
            editing={editing === row.task}
            onEdit={(open) => setEditing(open ? row.task : null)}
          />
        ))}
      </ul>
    </>
  );
}

export function AuxiliaryPanel() {
  const tasks = useAuxiliary((s) => s.tasks);
  const load = useAuxiliary((s) => s.load);
  return (
    <div className="aux-panel">
      <div className="aux-panel-header">
        <div>
          <h2 className="card-title">Auxiliary models</h2>
          <p className="card-description">Helper tasks run on the main model unless you pin one.</p>
        </div>
        <ResetAllButton header />
      </div>
      <LoadableView
        value={tasks}
        loadingText="Loading auxiliary models…"
        failureText="Couldn't load the auxiliary models"
        onRetry={load}
      >
        {(rows) => <SlotList rows={rows} />}
      </LoadableView>
    </div>
  );
}
