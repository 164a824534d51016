/**
 * Settings → Models → Main: the provider and model chat uses. Shows the current choice on load,
 * fetches the provider's models when the provider changes, and confirms a save in a status line.
 */
import { Check, Cpu, Plus } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import type { ProviderView } from "../../../../electron/host/rpc/methods/providers.js";
import { describeError } from "../../api/rpc-error.js";
import { Button } from "../../ui/button.js";
import { EmptyState } from "../../ui/empty-state.js";
import { Field } from "../../ui/field.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { LoadFailedAlert } from "../../ui/loadable-view.js";
import { LoadingLine } from "../../ui/spinner.js";
import { useAuxiliary, useMainModel, useNavigation, useProviders } from "../../stores/stores-context.js";
import { StaleBanner } from "../auxiliary/stale-banner.js";
import type { MainModel } from "../../stores/settings/main-model-store.js";
import { ModelCombobox } from "./model-combobox.js";

export function MainModelPanel() {
  const providers = useProviders((s) => s.providers);
  const current = useMainModel((s) => s.current);
  const reloadProviders = useProviders((s) => s.load);
  const reloadCurrent = useMainModel((s) => s.loadCurrent);
  const openAdd = useNavigation((s) => s.openAddProvider);
  const [saved, setSaved] = useState<string | null>(null);
  const auxiliary = useAuxiliary((s) => s.tasks);
  const reloadAuxiliary = useAuxiliary((s) => s.load);

  let body;
  if (providers.kind === "loading" || current.kind === "loading") {
    body = <LoadingLine>Loading your models…</LoadingLine>;
  } else if (providers.kind === "failed" || current.kind === "failed") {
    const message =
      providers.kind === "failed" ? providers.message : current.kind === "failed" ? current.message : "";
    body = (
      <LoadFailedAlert onRetry={() => Promise.all([reloadProviders(), reloadCurrent()])}>
        Couldn't load the main model: {message}
      </LoadFailedAlert>
    );
  } else if (providers.data.length === 0) {
    body = (
      <EmptyState
        icon={<Cpu size={20} />}
        title="Add a provider first"
        headingLevel={3}
        action={
          <Button variant="primary" icon={<Plus size={16} aria-hidden="true" />} onClick={openAdd}>
            Add a provider
          </Button>
        }
      >
        The main model comes from one of your providers.
      </EmptyState>
    );
  } else {
    body = (
      <MainModelForm
        providers={providers.data}
        current={current.data}
        savedMessage={saved}
        onSaved={(provider, model) => {
          setSaved(`Saved: ${provider.name} · ${model}`);
          // Which pins are now stale depends on the new main provider.
          void reloadAuxiliary();
        }}
        onEdited={() => setSaved(null)}
      />
    );
  }

  return (
    <div className="card card-padded">
      <div className="card-header">
        <h2 className="card-title">Main model</h2>
        <p className="card-description">What chat uses, and what “auto” means for every side task.</p>
      </div>
      {body}
      {/* A new main model can leave pinned side tasks behind on the old provider: say so here too. */}
      {auxiliary.kind === "ready" ? <StaleBanner rows={auxiliary.data} /> : null}
    </div>
  );
}

function MainModelForm({
  providers,
  current,
  savedMessage,
  onSaved,
  onEdited,
}: {
  providers: ProviderView[];
  current: MainModel | null;
  savedMessage: string | null;
  onSaved(provider: ProviderView, model: string): void;
  onEdited(): void;
}) {
  const save = useMainModel((s) => s.save);
  const loadModels = useMainModel((s) => s.loadModels);
  const knownCurrent = current && providers.some((p) => p.id === current.provider) ? current : null;
  const [providerId, setProviderId] = useState(knownCurrent?.provider ?? "");
  const [model, setModel] = useState(knownCurrent?.model ?? "");
  const [dirty, setDirty] = useState(false);
  const [seenCurrent, setSeenCurrent] = useState(knownCurrent);
  const [errors, setErrors] = useState<{ provider?: string; model?: string }>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const modelList = useMainModel((s) => (providerId ? s.modelLists[providerId] : undefined));

  // Someone else changed the main model (another window, config.yaml by hand): follow it unless
  // the user is mid-edit.
  if (!sameModel(knownCurrent, seenCurrent)) {
    setSeenCurrent(knownCurrent);
    if (!dirty) {
      setProviderId(knownCurrent?.provider ?? "");
      setModel(knownCurrent?.model ?? "");
    }
  }

  useEffect(() => {
    if (providerId) void loadModels(providerId);
  }, [providerId, loadModels]);

  const edited = () => {
    setDirty(true);
    setSaveError(null);
    onEdited();
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const provider = providers.find((p) => p.id === providerId);
    const chosenModel = model.trim();
    const found = {
      ...(provider ? {} : { provider: "Choose the provider chat should use." }),
      ...(chosenModel ? {} : { model: "Pick a model from the list or type its id." }),
    };
    setErrors(found);
    if (!provider || !chosenModel) return;
    setSaving(true);
    setSaveError(null);
    try {
      const result = await save({ provider: provider.id, model: chosenModel });
      setDirty(false);
      onSaved(provider, result.model);
    } catch (err) {
      setSaveError(describeError(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="main-model-form" onSubmit={submit} noValidate>
      <Field label="Provider" error={errors.provider ?? null}>
        {(control) => (
          <select
            {...control}
            className="input select"
            value={providerId}
            onChange={(event) => {
              setProviderId(event.target.value);
              setModel("");
              setErrors({});
              edited();
            }}
          >
            {providerId === "" ? (
              <option value="" disabled>
                Choose a provider
              </option>
            ) : null}
            {providers.map((provider) => (
              <option key={provider.id} value={provider.id}>
                {provider.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label="Model"
        error={errors.model ?? null}
        hint={
          modelList?.kind === "ready"
            ? `${modelList.models.length === 1 ? "1 model" : `${modelList.models.length} models`} available. You can also type an id the list doesn't show.`
            : undefined
        }
      >
        {(control) => (
          <ModelCombobox
            control={control}
            value={model}
            onChange={(value) => {
              setModel(value);
              if (errors.model) setErrors((e) => ({ ...e, model: undefined }));
              edited();
            }}
            models={modelList?.kind === "ready" ? modelList.models : null}
            disabled={!providerId}
          />
        )}
      </Field>
      {modelList?.kind === "loading" ? <LoadingLine>Loading models…</LoadingLine> : null}
      {modelList?.kind === "failed" ? (
        <LoadFailedAlert tone="warning" onRetry={() => loadModels(providerId, { force: true })}>
          Couldn't list this provider's models: {modelList.message} You can still type a model id.
        </LoadFailedAlert>
      ) : null}
      {saveError ? <InlineAlert>{saveError}</InlineAlert> : null}
      <div className="form-actions">
        {/* Always mounted so screen readers announce the text when it appears. */}
        <p role="status" className="save-status">
          {savedMessage ? (
            <>
              <Check size={14} aria-hidden="true" />
              {savedMessage}
            </>
          ) : null}
        </p>
        <Button type="submit" variant="primary" disabled={saving} busy={saving}>
          {saving ? "Saving…" : "Save"}
        </Button>
      </div>
    </form>
  );
}

const sameModel = (a: MainModel | null, b: MainModel | null): boolean =>
  a === b || (a !== null && b !== null && a.provider === b.provider && a.model === b.model);
