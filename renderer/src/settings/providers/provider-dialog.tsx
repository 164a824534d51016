/** Add provider / Edit provider, opened from anywhere through the navigation store. */
import { useState } from "react";
import { Dialog } from "../../ui/dialog.js";
import { useNavigation, useProviders } from "../../stores/stores-context.js";
import { selectProviderList } from "../../stores/settings/providers-store.js";
import { PresetPicker } from "./preset-picker.js";
import { ProviderForm } from "./provider-form.js";
import { choiceName, fieldsForChoice, fieldsForProvider, type PresetChoice } from "./provider-form-model.js";

export function ProviderDialog() {
  const dialog = useNavigation((s) => s.providerDialog);
  const close = useNavigation((s) => s.closeProviderDialog);
  const [saving, setSaving] = useState(false);

  const onOpenChange = (open: boolean) => {
    // Closing mid-save would hide the outcome; the form keeps its buttons disabled meanwhile.
    if (!open && !saving) close();
  };

  const title = dialog.mode === "edit" ? "Edit provider" : "Add provider";
  return (
    <Dialog
      open={dialog.mode !== "closed"}
      onOpenChange={onOpenChange}
      title={title}
      description={
        dialog.mode === "edit"
          ? "Change where Hermes Desktop reaches this provider, or replace its key."
          : "Connect an OpenAI-compatible endpoint: a hosted service or a server on this machine."
      }
    >
      {dialog.mode === "add" ? <AddProviderBody onClose={close} onSavingChange={setSaving} /> : null}
      {dialog.mode === "edit" ? (
        <EditProviderBody providerId={dialog.providerId} onClose={close} onSavingChange={setSaving} />
      ) : null}
    </Dialog>
  );
}

function AddProviderBody({
  onClose,
  onSavingChange,
}: {
  onClose(): void;
  onSavingChange(saving: boolean): void;
}) {
  const [choice, setChoice] = useState<PresetChoice | null>(null);
  const save = useProviders((s) => s.save);
  return (
    <div className="dialog-body">
      <PresetPicker selected={choice} onPick={setChoice} />
      {choice ? (
        <ProviderForm
          key={choiceName(choice)}
          target={{ mode: "add", choice }}
          initialFields={fieldsForChoice(choice)}
          onSave={save}
          onCancel={onClose}
          onSavingChange={onSavingChange}
        />
      ) : (
        <p className="dialog-hint">Pick one to fill in its address; you can change everything after.</p>
      )}
    </div>
  );
}

function EditProviderBody({
  providerId,
  onClose,
  onSavingChange,
}: {
  providerId: string;
  onClose(): void;
  onSavingChange(saving: boolean): void;
}) {
  const provider = useProviders((s) => selectProviderList(s).find((p) => p.id === providerId));
  const save = useProviders((s) => s.save);
  const [initial] = useState(() => (provider ? fieldsForProvider(provider) : null));
  if (!provider || !initial) {
    return <p className="dialog-hint">This provider was removed meanwhile.</p>;
  }
  return (
    <div className="dialog-body">
      <ProviderForm
        target={{ mode: "edit", provider }}
        initialFields={initial}
        onSave={save}
        onCancel={onClose}
        onSavingChange={onSavingChange}
      />
    </div>
  );
}
