/**
 * Settings → Models → Auxiliary (docs/contract.md §6.5): every slot the host lists — built-ins, then plugin
 * slots — with its route in words, the stale banner, and Reset all to main. Every change is
 * written at once; the next call on the slot uses it.
 */
import { useState } from "react";
import type { AuxiliaryTaskRow } from "../../../../electron/host/rpc/methods/model.js";
import { LoadableView } from "../../ui/loadable-view.js";
import { useAuxiliary, useProviders } from "../../stores/stores-context.js";
import { ResetAllButton, StaleBanner } from "./stale-banner.js";
import { SlotRow } from "./slot-row.js";

function SlotList({ rows }: { rows: AuxiliaryTaskRow[] }) {
  const providers = useProviders((s) => (s.providers.kind === "ready" ? s.providers.data : []));
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <>
      <StaleBanner rows={rows} />
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
