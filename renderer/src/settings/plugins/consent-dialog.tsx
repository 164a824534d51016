/**
 * The consent screen (docs/contract.md §7.2): shown at once when an enabled plugin asks for capabilities. The
 * plugin's name and version, one row per pending capability in the words of docs/contract.md §7.1, a note that
 * granting trusts the plugin's author, and Grant / Decline. Decline has the focus; Escape, the
 * close button and a click outside decline too. Declining keeps the plugin on, those capabilities off.
 */
import * as RadixDialog from "@radix-ui/react-dialog";
import { ShieldQuestion } from "lucide-react";
import { useRef } from "react";
import { usePlugins } from "../../stores/stores-context.js";
import { Button } from "../../ui/button.js";
import { DialogCloseButton } from "../../ui/dialog.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { describeCapability } from "./capability-text.js";

/**
 * Where the focus goes when the screen closes. It opens on its own (a plugin asks), so there may be
 * no opener: then the plugin's switch on Settings → Plugins, or the message box. A Grant… or
 * Review button that opened it goes away with the answer, so its plugin's switch takes the focus.
 */
function closingFocusTarget(pluginId: string, opener: HTMLElement | null): HTMLElement | null {
  if (opener?.isConnected && !opener.closest("[data-capability]")) return opener;
  return (
    document.querySelector<HTMLElement>(`[data-plugin="${CSS.escape(pluginId)}"] [role="switch"]`) ??
    document.querySelector<HTMLElement>('[role="combobox"][aria-label="Message"]') ??
    (opener?.isConnected ? opener : null)
  );
}

export function ConsentDialog() {
  const request = usePlugins((s) => s.consentQueue[0]);
  const answer = usePlugins((s) => s.consentAnswer);
  const plugin = usePlugins((s) =>
    s.plugins.kind === "ready" && request ? s.plugins.data.find((p) => p.id === request.id) : undefined,
  );
  const answerConsent = usePlugins((s) => s.answerConsent);
  const dismiss = usePlugins((s) => s.dismissConsent);
  const decline = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  if (!request) return null;

  const busy = answer.kind === "pending";
  const name = plugin?.name ?? request.id;
  const version = plugin?.version;
  // Closing declines; after a failed answer it only closes (the question comes back next start).
  const close = () => {
    if (busy) return;
    if (answer.kind === "failed") dismiss();
    else void answerConsent([]);
  };

  return (
    // Keyed by plugin: the next plugin's screen opens afresh, focus on its Decline.
    <RadixDialog.Root key={request.id} open onOpenChange={(open) => (open ? undefined : close())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className="dialog dialog-md consent-dialog"
          aria-label="Plugin consent"
          aria-labelledby={undefined}
          aria-describedby={undefined}
          data-plugin={request.id}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            const active = document.activeElement;
            opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
            decline.current?.focus();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            closingFocusTarget(request.id, opener.current)?.focus();
            opener.current = null;
          }}
        >
          <header className="dialog-header consent-header">
            <span className="consent-icon" aria-hidden="true">
              <ShieldQuestion size={20} />
            </span>
            <div>
              <RadixDialog.Title className="dialog-title">
                {name}
                {version ? <span className="plugin-version consent-version">v{version}</span> : null}
              </RadixDialog.Title>
              <p className="dialog-description">This plugin asks to:</p>
            </div>
          </header>
          <div className="dialog-body">
            <ul className="consent-capabilities" aria-label={`Capabilities ${name} asks for`}>
              {request.pendingCapabilities.map((id) => {
                const text = describeCapability(id);
                return (
                  <li key={id} className="consent-capability" data-capability={id}>
                    <span className="plugin-capability-label">{text.label}</span>
                    <span className="consent-capability-text">{text.description}</span>
                  </li>
                );
              })}
            </ul>
            <p className="consent-trust-note">
              Granting trusts the plugin&apos;s author: its code acts with these permissions. You can revoke
              them at any time in Settings → Plugins.
            </p>
            <p className="consent-trust-note" data-testid="consent-decline-note">
              Decline keeps {name} on without {request.pendingCapabilities.length === 1 ? "this" : "these"}{" "}
              {request.pendingCapabilities.length === 1 ? "capability" : "capabilities"}: the rest of it works
              as before, and you can grant {request.pendingCapabilities.length === 1 ? "it" : "them"} later in
              Settings → Plugins.
            </p>
            {answer.kind === "failed" ? <InlineAlert>{answer.message}</InlineAlert> : null}
            <footer className="dialog-footer">
              {/* A plain button: it takes the dialog's first focus through a ref. */}
              <button
                ref={decline}
                type="button"
                className="btn btn-secondary btn-md"
                onClick={() => void answerConsent([])}
                disabled={busy}
              >
                Decline
              </button>
              <Button
                variant="primary"
                onClick={() => void answerConsent(request.pendingCapabilities)}
                disabled={busy}
                busy={busy}
              >
                Grant
              </Button>
            </footer>
          </div>
          <DialogCloseButton />
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
