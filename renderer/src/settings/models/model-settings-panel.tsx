/**
 * A provider's per-model settings (docs/contract.md §9.1): for each model it names, the context window and
 * whether it takes images. Left empty, the app uses the provider's model list or its defaults for
 * well-known names. Every change is written to `config.yaml` at once.
 */
import { useEffect, useState, type FormEvent } from "react";
import { MIN_CONTEXT_WINDOW } from "../../../../electron/host/rpc/methods/settings.js";
import { describeError } from "../../api/rpc-error.js";
import { Button } from "../../ui/button.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { useStores } from "../../stores/stores-context.js";
import { useStore } from "zustand";
import type { ModelSetting } from "../../stores/settings/model-settings-store.js";

const noModels: Readonly<Record<string, ModelSetting>> = {};

export function ModelSettingsPanel({
  providerId,
  providerName,
}: {
  providerId: string;
  providerName: string;
}) {
  const store = useStores().modelSettings;
  const byProvider = useStore(store, (s) => s.byProvider);
  const models = byProvider.kind === "ready" ? (byProvider.data[providerId] ?? noModels) : null;
  const save = useStore(store, (s) => s.save);
  const ensureLoaded = useStore(store, (s) => s.ensureLoaded);
  useEffect(() => void ensureLoaded(), [ensureLoaded]);
  const [newModel, setNewModel] = useState("");
  const [error, setError] = useState<string | null>(null);

  if (models === null) return null;
  const write = async (next: Record<string, ModelSetting>) => {
    setError(null);
    try {
      await save(providerId, next);
    } catch (err) {
      setError(describeError(err));
    }
  };
  const change = (model: string, patch: ModelSetting) => {
    const merged: ModelSetting = { ...models[model], ...patch };
    if (merged.context_window === undefined) delete merged.context_window;
    void write({ ...models, [model]: merged });
  };
  const add = (event: FormEvent) => {
    event.preventDefault();
    const id = newModel.trim();
    if (!id) return setError("Type the model id, for example qwen3-8b.");
    setNewModel("");
    void write({ ...models, [id]: { vision: false } });
  };

  return (
    <details className="model-settings">
      <summary>Model settings</summary>
      <p className="muted">
        Context window and image input per model, when {providerName}'s model list doesn't say. Empty: the
        app's defaults for well-known names.
      </p>
      {Object.keys(models).length > 0 ? (
        <ul className="model-settings-list" aria-label={`Model settings of ${providerName}`}>
          {Object.entries(models).map(([model, setting]) => (
            <li key={model} data-model={model}>
              <span className="model-chip">{model}</span>
              <label>
                Context window
                <input
                  className="input"
                  type="number"
                  min={MIN_CONTEXT_WINDOW}
                  defaultValue={setting.context_window ?? ""}
                  onBlur={(event) => {
                    const value = event.target.value.trim();
                    const next = value ? Number(value) : undefined;
                    if (next !== setting.context_window) change(model, { context_window: next });
                  }}
                />
              </label>
              <label>
                <input
                  type="checkbox"
                  checked={setting.vision === true}
                  onChange={(event) => change(model, { vision: event.target.checked })}
                />
                Takes images
              </label>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  const next = { ...models };
                  delete next[model];
                  void write(next);
                }}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <form className="model-settings-add" onSubmit={add}>
        <input
          className="input"
          aria-label={`Model id for ${providerName}`}
          placeholder="Model id"
          value={newModel}
          onChange={(event) => setNewModel(event.target.value)}
        />
        <Button size="sm" type="submit">
          Add model
        </Button>
      </form>
      {error ? <InlineAlert>{error}</InlineAlert> : null}
    </details>
  );
}
