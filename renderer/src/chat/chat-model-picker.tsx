/**
 * "Model for this chat": the header button that shows what the open chat runs with and opens a
 * dialog to switch it (provider, then model, from the provider's list or typed). The switch is
 * the chat's own; the main model in Settings stays as it is.
 */
import { Cpu } from "lucide-react";
import { useEffect, useState } from "react";
import { ModelCombobox } from "../settings/models/model-combobox.js";
import { useTranscript } from "../stores/chat/chat-context.js";
import { selectProviderList } from "../stores/settings/providers-store.js";
import { useMainModel, useNavigation, useProviders } from "../stores/stores-context.js";
import { selectIsRunning } from "../stores/chat/transcript-store.js";
import { Dialog } from "../ui/dialog.js";
import { DialogForm } from "../ui/dialog-form.js";
import { Field } from "../ui/field.js";

export function ChatModelPicker({ fallback }: { fallback: { provider: string; model: string } }) {
  const own = useTranscript((s) => s.own);
  const hasSession = useTranscript((s) => s.sessionId !== null);
  const running = useTranscript(selectIsRunning);
  const providers = useProviders(selectProviderList);
  const open = useNavigation((s) => s.chatModelPickerOpen);
  const setOpen = useNavigation((s) => s.setChatModelPickerOpen);
  const route = own?.model.model ? own.model : fallback;
  const providerName = providers.find((p) => p.id === route.provider)?.name ?? route.provider;

  return (
    <>
      <button
        type="button"
        className="model-pill header-button"
        title={
          hasSession
            ? running
              ? "Switch the model once the reply is written"
              : "Switch the model for this chat"
            : "Send a message first; then the model can be switched for this chat"
        }
        disabled={!hasSession || running}
        onClick={() => setOpen(true)}
      >
        <Cpu size={14} aria-hidden="true" />
        {/* Named "Model for this chat: <what it shows>", so the visible text is part of the name. */}
        <span className="visually-hidden">Model for this chat: </span>
        <span className="model-pill-text">
          {providerName} · {route.model}
        </span>
      </button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Model for this chat"
        description="From the next reply on. The main model in Settings stays as it is."
      >
        {open ? <ModelForm initial={route} onDone={() => setOpen(false)} /> : null}
      </Dialog>
    </>
  );
}

function ModelForm({ initial, onDone }: { initial: { provider: string; model: string }; onDone(): void }) {
  const providers = useProviders(selectProviderList);
  const setModel = useTranscript((s) => s.setModel);
  const loadModels = useMainModel((s) => s.loadModels);
  const [providerId, setProviderId] = useState(initial.provider || (providers[0]?.id ?? ""));
  const [model, setModelText] = useState(initial.model);
  const list = useMainModel((s) => s.modelLists[providerId]);

  // Fetched afresh each time the dialog opens: the provider's list may have changed since.
  useEffect(() => {
    if (providerId) void loadModels(providerId, { force: true });
  }, [providerId, loadModels]);

  return (
    <DialogForm
      validate={() => (model.trim() ? null : "Type or pick a model.")}
      save={() => setModel(providerId, model.trim())}
      onDone={onDone}
      submitLabel="Switch model"
      busyLabel="Switching…"
    >
      <Field label="Provider">
        {(control) => (
          <select
            {...control}
            className="input"
            value={providerId}
            onChange={(event) => {
              setProviderId(event.target.value);
              setModelText("");
            }}
          >
            {providers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Model">
        {(control) => (
          <ModelCombobox
            control={control}
            value={model}
            onChange={setModelText}
            models={list?.kind === "ready" ? list.models : null}
          />
        )}
      </Field>
    </DialogForm>
  );
}
