/**
 * First run, nothing configured yet (docs/contract.md §3.1, §6.1.1): the local model servers found on
 * this machine, one click each, and — when a Hermes set-up exists — its import. The scan starts
 * once this screen is up, so it never holds up the window.
 */
import { Download } from "lucide-react";
import { useEffect } from "react";
import { LocalServersPanel } from "../settings/providers/local-servers-panel.js";
import { useNavigation, useSetup } from "../stores/stores-context.js";
import { Button } from "../ui/button.js";

export function FirstRunOffers() {
  const importSource = useSetup((s) => s.importSource);
  const detectImport = useSetup((s) => s.detectImport);
  const loadPreview = useSetup((s) => s.loadPreview);
  const goToSettings = useNavigation((s) => s.goToSettings);

  useEffect(() => {
    void detectImport();
  }, [detectImport]);

  const openImport = () => {
    goToSettings("general");
    void loadPreview();
  };

  return (
    <div className="first-run-offers">
      {importSource?.source ? (
        <section className="card card-padded hermes-import" aria-labelledby="first-run-import-heading">
          <div className="hermes-import-header">
            <div>
              <h2 id="first-run-import-heading" className="hermes-import-title">
                Hermes set-up found
              </h2>
              <p className="muted hermes-import-lead">
                Bring over your providers, models and plugin settings from {importSource.source}.
              </p>
            </div>
            <Button
              size="sm"
              variant="primary"
              icon={<Download size={14} aria-hidden="true" />}
              onClick={openImport}
            >
              Import from Hermes
            </Button>
          </div>
        </section>
      ) : null}
      <LocalServersPanel scanOnMount />
    </div>
  );
}
