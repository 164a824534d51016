/**
 * The inline editor of one slot (docs/contract.md §6.5): a provider select, a model select, Apply and Cancel.
 * Escape cancels. When a provider's model list can't be fetched, the model becomes a text field
 * so a pin is still possible.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import type { ProviderView } from "../../../../electron/host/rpc/methods/providers.js";
import { describeError } from "../../api/rpc-error.js";
import { Button } from "../../ui/button.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { LoadingLine } from "../../ui/spinner.js";
import { useMainModel } from "../../stores/stores-context.js";

export function SlotEditor({
  slotLabel,
  providers,
  initialProvider,
  initialModel,
  onApply,
  onCancel,
}: {
  slotLabel: string;
  providers: readonly ProviderView[];
  initialProvider: string;
  initialModel: string;
  onApply(provider: string, model: string): Promise<void>;
  onCancel(): void;
}) {
  const id = useId();
  const known = providers.some((p) => p.id === initialProvider) ? initialProvider : (providers[0]?.id ?? "");
  const [providerId, setProviderId] = useState(known);
  const [model, setModel] = useState(known === initialProvider ? initialModel : "");
  const [error, setError] = useState<string | null>(null);
  const [applying, setApplying] = useState(false);
  const loadModels = useMainModel((s) => s.loadModels);
  const list = useMainModel((s) => (providerId ? s.modelLists[providerId] : undefined));
  const providerRef = useRef<HTMLSelectElement>(null);

  useEffect(() => providerRef.current?.focus(), []);
  useEffect(() => {
    if (providerId) void loadModels(providerId);
  }, [providerId, loadModels]);

  const models = list?.kind === "ready" ? list.models : [];
  // Until the user picks one, the select shows (and Apply sends) the list's first model.
  const chosen = model || (list?.kind === "ready" ? (list.models[0] ?? "") : "");

  async function apply(event: FormEvent) {
    event.preventDefault();
    if (!providerId) return setError("Choose a provider.");
    if (!chosen.trim()) return setError("Choose a model.");
    setApplying(true);
    setError(null);
    try {
      await onApply(providerId, chosen.trim());
    } catch (err) {
      setError(describeError(err));
      setApplying(false);
    }
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      onCancel();
    }
  };

  return (
    <form className="aux-editor" onSubmit={apply} onKeyDown={onKeyDown} aria-label={`Change ${slotLabel}`}>
      <div className="aux-editor-fields">
        <div className="aux-editor-field">
          <label className="field-label" htmlFor={`${id}-provider`}>
            Provider
          </label>
          <select
            id={`${id}-provider`}
            ref={providerRef}
            className="input select"
            value={providerId}
            onChange={(event) => {
              setProviderId(event.target.value);
              setModel("");
              setError(null);
            }}
          >
            {providers.map((provider) => (
              <option key={provider.id} value={provider.id}>
                {provider.name}
              </option>
            ))}
          </select>
        </div>
        <div className="aux-editor-field">
          <label className="field-label" htmlFor={`${id}-model`}>
            Model
          </label>
          {list?.kind === "failed" ? (
            <input
              id={`${id}-model`}
              className="input"
              value={model}
              placeholder="Type a model id"
              onChange={(event) => setModel(event.target.value)}
            />
          ) : (
            <select
              id={`${id}-model`}
              className="input select"
              value={chosen}
              disabled={list?.kind !== "ready"}
              onChange={(event) => setModel(event.target.value)}
            >
              {chosen && !models.includes(chosen) ? <option value={chosen}>{chosen}</option> : null}
              {models.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          )}
        </div>
      </div>
      {list?.kind === "loading" ? <LoadingLine>Loading models…</LoadingLine> : null}
      {list?.kind === "failed" ? (
        <InlineAlert tone="warning">
          Couldn't list this provider's models: {list.message} Type a model id instead.
        </InlineAlert>
      ) : null}
      {error ? <InlineAlert>{error}</InlineAlert> : null}
      <div className="aux-editor-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={applying} disabled={applying}>
          Apply
        </Button>
      </div>
    </form>
  );
}
