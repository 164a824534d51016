/**
 * The provider fields and Save. The API key input is uncontrolled on purpose: a controlled input
 * would mirror the key into React state and the input's `value` attribute (the DOM). It is read
 * once at save time and cleared as soon as the save call returns.
 */
import { useRef, useState, type FormEvent } from "react";
import { describeError } from "../api/rpc-error.js";
import { Button } from "../ui/button.js";
import { Field } from "../ui/field.js";
import { InlineAlert } from "../ui/inline-alert.js";
import {
  needsKey,
  providerIdFor,
  saveParams,
  validateProviderFields,
  type FieldErrors,
  type FormTarget,
  type ProviderFields,
} from "./provider-form-model.js";
import type { ProvidersSaveParams } from "../../../electron/host/rpc/methods/providers.js";

export function ProviderForm({
  target,
  initialFields,
  existingIds,
  onSave,
  onCancel,
  onSavingChange,
}: {
  target: FormTarget;
  initialFields: ProviderFields;
  existingIds: readonly string[];
  onSave(params: ProvidersSaveParams): Promise<unknown>;
  onCancel(): void;
  onSavingChange(saving: boolean): void;
}) {
  const [fields, setFields] = useState(initialFields);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const apiKeyInput = useRef<HTMLInputElement>(null);

  const id = providerIdFor(target, fields);
  const editingWithKey = target.mode === "edit" && target.provider.hasKey;

  const update = (key: keyof ProviderFields) => (value: string) => {
    setFields((current) => ({ ...current, [key]: value }));
    if (errors[key] || (key === "name" && errors.id))
      setErrors((current) => ({ ...current, [key]: undefined, id: undefined }));
  };

  const setBusy = (busy: boolean) => {
    setSaving(busy);
    onSavingChange(busy);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const found = validateProviderFields(target, fields, existingIds);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setSaveError(null);
    setBusy(true);
    try {
      await onSave(saveParams(target, fields, apiKeyInput.current?.value ?? ""));
      if (apiKeyInput.current) apiKeyInput.current.value = "";
      setBusy(false);
      onCancel();
    } catch (err) {
      setSaveError(describeError(err));
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
      <Field label="Name" error={errors.name ?? errors.id ?? null} hint={<ProviderIdHint id={id} />}>
        {(control) => (
          <input
            {...control}
            className="input"
            type="text"
            value={fields.name}
            onChange={(e) => update("name")(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            autoFocus
          />
        )}
      </Field>
      <Field label="Base URL" error={errors.baseUrl ?? null}>
        {(control) => (
          <input
            {...control}
            className="input input-mono"
            type="url"
            inputMode="url"
            value={fields.baseUrl}
            onChange={(e) => update("baseUrl")(e.target.value)}
            placeholder="https://host/v1"
            autoComplete="off"
            spellCheck={false}
          />
        )}
      </Field>
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
            className="input input-mono"
            type="text"
            value={fields.keyEnv}
            onChange={(e) => update("keyEnv")(e.target.value)}
            placeholder="e.g. OPENROUTER_API_KEY"
            autoComplete="off"
            spellCheck={false}
          />
        )}
      </Field>
      {saveError ? <InlineAlert>{saveError}</InlineAlert> : null}
      <footer className="dialog-footer">
        <Button variant="ghost" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={saving} busy={saving}>
          {saving ? "Saving…" : "Save"}
        </Button>
      </footer>
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
