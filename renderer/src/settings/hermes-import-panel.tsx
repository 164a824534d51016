/**
 * Settings → General → "Import from Hermes" (docs/contract.md §3.1): a preview of what an existing
 * Hermes set-up brings over (changes, the `.env` keys with checkboxes showing their last 4,
 * capabilities that will ask for consent, what stays behind and why), then **Import**; after
 * it, **Restore previous settings**.
 */
import { ArchiveRestore, Download } from "lucide-react";
import { useEffect, useState } from "react";
import { useSetup } from "../stores/stores-context.js";
import type { ImportPreview } from "../stores/settings/setup-store.js";
import { Button } from "../ui/button.js";
import { InlineAlert } from "../ui/inline-alert.js";

export function HermesImportPanel() {
  const importSource = useSetup((s) => s.importSource);
  const preview = useSetup((s) => s.preview);
  const outcome = useSetup((s) => s.importOutcome);
  const detectImport = useSetup((s) => s.detectImport);
  const loadPreview = useSetup((s) => s.loadPreview);
  const restoreSettings = useSetup((s) => s.restoreSettings);
  const working = outcome.kind === "working" || preview.kind === "loading";

  useEffect(() => {
    void detectImport();
  }, [detectImport]);

  return (
    <section className="card card-padded hermes-import" aria-labelledby="hermes-import-heading">
      <div className="hermes-import-header">
        <div>
          <h2 id="hermes-import-heading" className="hermes-import-title">
            Import from Hermes
          </h2>
          <p className="muted hermes-import-lead">
            {importSource?.source
              ? `Bring over the providers, models, slots and plugin settings of ${importSource.source}. You see everything before it is written.`
              : "Bring over the providers, models, slots and plugin settings of a Hermes Agent set-up ($HERMES_HOME or ~/.hermes)."}
          </p>
        </div>
        <Button
          size="sm"
          icon={<Download size={14} aria-hidden="true" />}
          onClick={() => void loadPreview()}
          disabled={working}
          busy={preview.kind === "loading"}
        >
          Import from Hermes
        </Button>
      </div>
      {preview.kind === "failed" ? <InlineAlert>{preview.message}</InlineAlert> : null}
      {preview.kind === "ready" ? <ImportPreviewView preview={preview.preview} /> : null}
      {outcome.kind === "imported" ? (
        <p role="status" className="save-status">
          Imported. Your previous settings are kept in {outcome.backup}.
        </p>
      ) : null}
      {outcome.kind === "restored" ? (
        <p role="status" className="save-status">
          Your previous settings are back.
        </p>
      ) : null}
      {outcome.kind === "failed" ? <InlineAlert>{outcome.message}</InlineAlert> : null}
      {importSource?.canRestore ? (
        <div className="import-actions">
          <Button
            size="sm"
            variant="ghost"
            icon={<ArchiveRestore size={14} aria-hidden="true" />}
            onClick={() => void restoreSettings()}
            disabled={working}
            busy={outcome.kind === "working" && outcome.action === "restore"}
          >
            Restore previous settings
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function ImportPreviewView({ preview }: { preview: ImportPreview }) {
  const applyImport = useSetup((s) => s.applyImport);
  const outcome = useSetup((s) => s.importOutcome);
  // Every key is offered checked: the person unticks the ones to leave behind.
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(preview.keys.map((k) => k.env)));
  const importing = outcome.kind === "working";
  const toggle = (env: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(env);
    else next.delete(env);
    setChosen(next);
  };

  return (
    <div className="hermes-import-preview" aria-label="Import preview">
      <p className="muted">From {preview.source}</p>
      <h3 className="import-section-title">Changes</h3>
      {preview.changes.length === 0 ? (
        <p className="muted">Nothing to change: your settings already match.</p>
      ) : (
        <ul className="import-list" aria-label="Changes">
          {preview.changes.map((change) => (
            <li key={change.key} className="import-row">
              <span className="import-key">{change.key}</span>
              <span className="import-values">
                {change.from === null ? "" : `${describe(change.from)} → `}
                {describe(change.to)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {preview.keys.length > 0 ? (
        <>
          <h3 className="import-section-title">Keys for the keychain</h3>
          <ul className="import-list" aria-label="Keys">
            {preview.keys.map((key) => (
              <li key={key.env}>
                <label className="import-check">
                  <input
                    type="checkbox"
                    checked={chosen.has(key.env)}
                    onChange={(event) => toggle(key.env, event.target.checked)}
                  />
                  <span>
                    <span className="import-key">{key.env}</span> for {key.provider} ••••{key.keyHint}
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {preview.pendingConsent.length > 0 ? (
        <>
          <h3 className="import-section-title">Will ask for your consent</h3>
          <ul className="import-list" aria-label="Pending consent">
            {preview.pendingConsent.map((entry) => (
              <li key={entry.plugin} className="import-row">
                <span>
                  {entry.plugin}: {entry.capabilities.join(", ")}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {preview.notImported.length > 0 ? (
        <>
          <h3 className="import-section-title">Not imported</h3>
          <ul className="import-list" aria-label="Not imported">
            {preview.notImported.map((entry, index) => (
              <li key={`${entry.key} ${index}`} className="import-row">
                <span className="import-key">{entry.key}</span>
                <span className="import-values">{entry.reason}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <div className="import-actions">
        <Button
          variant="primary"
          onClick={() => void applyImport([...chosen])}
          disabled={importing}
          busy={importing && outcome.action === "import"}
        >
          Import
        </Button>
      </div>
    </div>
  );
}

/** A setting's value in one short line: text as is, anything else as compact JSON. */
function describe(value: unknown): string {
  if (typeof value === "string") return value === "" ? '""' : value;
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}
