/**
 * A "Remove …?" confirmation: Cancel and a danger Remove, busy while the removal runs; a failure is
 * shown in place and the dialog stays open; it can't be closed while removing.
 */
import { useState, type ReactNode } from "react";
import { describeError } from "../api/rpc-error.js";
import { Button } from "./button.js";
import { Dialog } from "./dialog.js";
import { InlineAlert } from "./inline-alert.js";

export function ConfirmRemoveDialog({
  open,
  title,
  description,
  onRemove,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  description: string;
  /** Removes the thing; what it throws is shown in the dialog. */
  onRemove(): Promise<void>;
  onClose(): void;
  /** Said above the error and the buttons (e.g. what the removal breaks). */
  children?: ReactNode;
}) {
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (removing) return;
    setError(null);
    onClose();
  };

  async function confirm() {
    setRemoving(true);
    setError(null);
    try {
      await onRemove();
      setRemoving(false);
      onClose();
    } catch (err) {
      setError(describeError(err));
      setRemoving(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(isOpen) => (isOpen ? undefined : close())}
      title={title}
      description={description}
      width="sm"
    >
      <div className="dialog-body">
        {children}
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
