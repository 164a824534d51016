/**
 * A form inside a Dialog: its fields, then the error of the last save, then Cancel and the submit
 * button that turns busy while it saves. Every dialog that saves something ends the same way, so
 * the footer (and, for the plain case, the save state) is written once here.
 */
import { useState, type FormEvent, type ReactNode } from "react";
import { describeError } from "../api/rpc-error.js";
import { Button } from "./button.js";
import { InlineAlert } from "./inline-alert.js";

/** What the submit button says at rest and while its save runs ("Save" / "Saving…"). */
export interface SubmitLabels {
  submitLabel: string;
  busyLabel: string;
}

/** The error of the last save (if any) above Cancel and the submit button. */
export function DialogFormFooter({
  error,
  saving,
  onCancel,
  submitLabel,
  busyLabel,
}: SubmitLabels & { error: string | null; saving: boolean; onCancel(): void }) {
  return (
    <>
      {error ? <InlineAlert>{error}</InlineAlert> : null}
      <footer className="dialog-footer">
        <Button variant="ghost" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={saving} busy={saving}>
          {saving ? busyLabel : submitLabel}
        </Button>
      </footer>
    </>
  );
}

/**
 * The plain case: check the input, save, and close on success; a failed save stays open with its
 * error in plain words so nothing typed is lost.
 */
export function DialogForm({
  validate,
  save,
  onDone,
  submitLabel,
  busyLabel,
  children,
}: SubmitLabels & {
  /** A problem with the input, said before anything is saved; null when it can be saved. */
  validate?(): string | null;
  save(): Promise<unknown>;
  /** Closes the dialog: after a save, or on Cancel. */
  onDone(): void;
  children: ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = validate?.() ?? null;
    if (problem) {
      setError(problem);
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await save();
      onDone();
    } catch (err) {
      setError(describeError(err));
      setSaving(false);
    }
  }

  return (
    <form className="dialog-body" onSubmit={submit}>
      {children}
      <DialogFormFooter
        error={error}
        saving={saving}
        onCancel={onDone}
        submitLabel={submitLabel}
        busyLabel={busyLabel}
      />
    </form>
  );
}
