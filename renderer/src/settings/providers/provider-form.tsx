/**
 * The provider fields and Save. The API key input is uncontrolled on purpose: a controlled input
 * would mirror the key into React state and the input's `value` attribute (the DOM). It is read
 * once at save time and cleared as soon as the save call returns.
 */
import { useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { describeError } from "../../api/rpc-error.js";
import { DialogFormFooter } from "../../ui/dialog-form.js";
import { Field } from "../../ui/field.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { selectKeychainProblem } from "../../stores/host-store.js";
import { useHost } from "../../stores/stores-context.js";
import {
  fieldErrorOf,
  needsKey,
  providerIdFor,
  saveParams,
  type FieldErrors,
  type FormTarget,
  type ProviderFields,
} from "./provider-form-model.js";
import type { ProvidersSaveParams } from "../../../../electron/host/rpc/methods/providers.js";

export function ProviderForm({
  target,
  initialFields,
  onSave,
  onCancel,
  onSavingChange,
}: {
  target: FormTarget;
  initialFields: ProviderFields;
  onSave(params: ProvidersSaveParams): Promise<unknown>;
  onCancel(): void;
  onSavingChange(saving: boolean): void;
}) {
  const [fields, setFields] = useState(initialFields);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Without a keychain a typed key could not be saved: say so before anyone types one.
  const keychainProblem = useHost(selectKeychainProblem);
  const apiKeyInput = useRef<HTMLInputElement>(null);

  const id = providerIdFor(target, fields);
  const editingWithKey = target.mode === "edit" && target.provider.hasKey;

  const update = (key: keyof ProviderFields) => (value: string) => {
    setFields((current) => ({ ...current, [key]: value }));
    if (errors[key]) setErrors((current) => ({ ...current, [key]: undefined }));
  };

  // Name, Base URL and key variable: controlled inputs that are never autocompleted or
  // spell-checked (they hold names, URLs and identifiers, not prose).
  const bindText = (key: keyof ProviderFields) => ({
    value: fields[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => update(key)(e.target.value),
    autoComplete: "off",
    spellCheck: false,
  });

  const setBusy = (busy: boolean) => {
    setSaving(busy);
    onSavingChange(busy);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setErrors({});
    setSaveError(null);
    setBusy(true);
    try {
      await onSave(saveParams(target, fields, apiKeyInput.current?.value ?? ""));
      if (apiKeyInput.current) apiKeyInput.current.value = "";
      setBusy(false);
      onCancel();
    } catch (err) {
      // A field the host refused is marked under that field; anything else goes above the buttons.
      const fieldError = fieldErrorOf(err);
      if (fieldError) setErrors(fieldError);
      else setSaveError(describeError(err));
      setBusy(false);
    }
  }

  const keyPlaceholder = editingWithKey
    ? "Key set — leave empty to keep it"
    : needsKey(target)
      ? "Paste the provider's API key"
      : "Not needed for most local servers";

  return (
    <form className="provider-form" onSubmit={submit} noValidate aria-busy={saving || undefined}>
      <Field label="Name" error={errors.name ?? null} hint={<ProviderIdHint id={id} />}>
        {(control) => <input {...control} {...bindText("name")} className="input" type="text" autoFocus />}
      </Field>
      <Field label="Base URL" error={errors.baseUrl ?? null}>
        {(control) => (
          <input
            {...control}
            {...bindText("baseUrl")}
            className="input input-mono"
            type="url"
            inputMode="url"
            placeholder="https://host/v1"
          />
        )}
      </Field>
      {keychainProblem ? <InlineAlert tone="warning">{keychainProblem}</InlineAlert> : null}
      <Field
        label="API key"
        hint={
          editingWithKey && target.mode === "edit" && target.provider.keyHint
            ? `Current key ends in ${target.provider.keyHint}. It stays in your system keychain.`
            : "Stored in your system keychain; only its last 4 characters are ever shown."
        }
      >
        {(control) => (
          <input
            {...control}
            ref={apiKeyInput}
            className="input input-mono"
            type="password"
            disabled={keychainProblem !== null}
            autoComplete="off"
            spellCheck={false}
            placeholder={keyPlaceholder}
          />
        )}
      </Field>
      <Field
        label="Key environment variable"
        optional
        error={errors.keyEnv ?? null}
        hint="When set, the key is read from this variable instead of the keychain."
      >
        {(control) => (
          <input
            {...control}
            {...bindText("keyEnv")}
            className="input input-mono"
            type="text"
            placeholder="e.g. OPENROUTER_API_KEY"
          />
        )}
      </Field>
      <DialogFormFooter
        error={saveError}
        saving={saving}
        onCancel={onCancel}
        submitLabel="Save"
        busyLabel="Saving…"
      />
    </form>
  );
}

function ProviderIdHint({ id }: { id: string }) {
  return (
    <>
      Provider ID <code className="code-chip">{id || "—"}</code>
    </>
  );
}
