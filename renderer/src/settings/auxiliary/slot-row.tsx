/**
 * One slot on Settings → Models → Auxiliary (docs/contract.md §6.5): label, hint, its route in words (and the
 * whole chain when it inherits through another slot), and Change / Reset / Follow <Base>. A pin
 * whose provider is gone is marked broken with what to do.
 */
import { useRef, useState } from "react";
import type { AuxiliaryTaskRow } from "../../../../electron/host/rpc/methods/model.js";
import type { ProviderView } from "../../../../electron/host/rpc/methods/providers.js";
import { describeError } from "../../api/rpc-error.js";
import { Button } from "../../ui/button.js";
import { refocusIfLost } from "../../app/focus-rescue.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { useAuxiliary } from "../../stores/stores-context.js";
import { chainInWords, isPinnedRow, routeInWords } from "./route-words.js";
import { SlotEditor } from "./slot-editor.js";

export function SlotRow({
  row,
  rows,
  providers,
  editing,
  onEdit,
}: {
  row: AuxiliaryTaskRow;
  rows: readonly AuxiliaryTaskRow[];
  providers: readonly ProviderView[];
  editing: boolean;
  onEdit(open: boolean): void;
}) {
  const pin = useAuxiliary((s) => s.pin);
  const follow = useAuxiliary((s) => s.follow);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const rowRef = useRef<HTMLLIElement>(null);
  const followWhyId = `aux-follow-why-${row.task}`;
  const baseLabel = row.inherit_from
    ? (rows.find((r) => r.task === row.inherit_from)?.label ?? row.inherit_from)
    : null;
  const pinned = isPinnedRow(row);
  const providerName = (id: string) => providers.find((p) => p.id === id)?.name ?? id;
  const chain = chainInWords(row, rows);

  const changeButton = () => rowRef.current?.querySelector<HTMLButtonElement>("[data-action=change]");
  const close = () => {
    onEdit(false);
    // Back to the button that opened the editor, for keyboard users.
    requestAnimationFrame(() => changeButton()?.focus());
  };

  async function backToAuto() {
    setBusy(true);
    setError(null);
    try {
      await follow(row.task);
      // Reset and Follow go away with the pin: the focus they had goes to Change.
      refocusIfLost(changeButton);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li ref={rowRef} className="settings-row card aux-row" data-task={row.task} data-source={row.source}>
      <div className="settings-row-main">
        <div className="settings-row-text">
          <div className="aux-row-title">
            <span className="aux-label">{row.label}</span>
            {row.plugin ? <span className="badge">Plugin {row.plugin}</span> : null}
            {row.stale ? <span className="badge badge-warning">Not the main provider</span> : null}
            {row.broken ? <span className="badge badge-danger">Broken</span> : null}
            {row.source === "defaults" ? <span className="badge">Plugin default</span> : null}
          </div>
          <p className="aux-hint">{row.hint}</p>
          <p className="aux-route" data-testid="aux-route">
            {routeInWords(row, rows)}
          </p>
          {row.source === "main" ? (
            // "auto" names what it resolves to right now, so a person sees which model runs the task.
            <p className="aux-chain" data-testid="aux-resolves">
              Runs on {providerName(row.effective.provider)} · {row.effective.model}
            </p>
          ) : null}
          {chain ? <p className="aux-chain">Through {chain}</p> : null}
        </div>
        <div className="aux-row-actions">
          <Button size="sm" data-action="change" aria-expanded={editing} onClick={() => onEdit(!editing)}>
            Change
          </Button>
          {pinned ? (
            <Button size="sm" busy={busy} disabled={busy} onClick={() => void backToAuto()}>
              Reset
            </Button>
          ) : null}
          {pinned && baseLabel ? (
            <Button
              size="sm"
              busy={busy}
              // Not allowed by docs/contract.md §6.4: following would only reset, so say why instead.
              disabled={busy || row.follow_blocked !== null}
              aria-describedby={row.follow_blocked ? followWhyId : undefined}
              onClick={() => void backToAuto()}
            >
              Follow {baseLabel}
            </Button>
          ) : null}
        </div>
      </div>
      {pinned && baseLabel && row.follow_blocked ? (
        <p className="aux-follow-blocked" id={followWhyId}>
          Follow {baseLabel} is not available: {row.follow_blocked}
        </p>
      ) : null}
      {row.broken ? <InlineAlert>{row.broken}</InlineAlert> : null}
      {error ? <InlineAlert>{error}</InlineAlert> : null}
      {editing ? (
        providers.length === 0 ? (
          <InlineAlert tone="warning">
            Add a provider in Settings → Providers first, then pin this task to it.
          </InlineAlert>
        ) : (
          <SlotEditor
            slotLabel={row.label}
            providers={providers}
            initialProvider={row.source === "pin" ? row.provider : row.effective.provider}
            initialModel={row.source === "pin" ? row.model : row.effective.model}
            onApply={async (provider, model) => {
              await pin(row.task, provider, model);
              close();
            }}
            onCancel={close}
          />
        )
      ) : null}
    </li>
  );
}
