/** One provider: name, base URL, key state, its actions and the outcome of "Test connection". */
import { CircleCheck, KeyRound, Pencil, PlugZap, RotateCcw, Trash } from "lucide-react";
import type { ProviderView } from "../../../../electron/host/rpc/methods/providers.js";
import { Button } from "../../ui/button.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { useProviders } from "../../stores/stores-context.js";
import type { ConnectionTest } from "../../stores/settings/providers-store.js";
import { ModelSettingsPanel } from "../models/model-settings-panel.js";

export function ProviderRow({
  provider,
  isMain,
  onEdit,
  onRemove,
  onAddKey,
}: {
  provider: ProviderView;
  isMain: boolean;
  onEdit(): void;
  onRemove(): void;
  /** Opens the form at its API key, for a provider that refused a request without one. */
  onAddKey(): void;
}) {
  const test = useProviders((s) => s.connectionTests[provider.id]);
  const testConnection = useProviders((s) => s.testConnection);
  const testing = test?.kind === "testing";

  return (
    <li className="settings-row card" data-provider={provider.id}>
      <div className="settings-row-main">
        <div className="settings-row-icon provider-avatar" aria-hidden="true">
          {initials(provider.name)}
        </div>
        <div className="settings-row-text">
          <div className="provider-row-title">
            <span className="provider-name">{provider.name}</span>
            {isMain ? <span className="badge badge-accent">Main model</span> : null}
          </div>
          <div className="provider-url">{provider.base_url}</div>
          <KeyState provider={provider} />
        </div>
        <div className="provider-row-actions">
          <Button
            size="sm"
            icon={<PlugZap size={14} aria-hidden="true" />}
            onClick={() => void testConnection(provider.id)}
            disabled={testing}
            busy={testing}
          >
            {testing ? "Testing…" : "Test connection"}
          </Button>
          <Button size="sm" variant="ghost" icon={<Pencil size={14} aria-hidden="true" />} onClick={onEdit}>
            Edit
          </Button>
          <Button size="sm" variant="ghost" icon={<Trash size={14} aria-hidden="true" />} onClick={onRemove}>
            Remove
          </Button>
        </div>
      </div>
      {test && test.kind !== "testing" ? (
        <ConnectionTestResult
          name={provider.name}
          test={test}
          hasKey={provider.hasKey}
          onAddKey={onAddKey}
          onEdit={onEdit}
          onRetry={() => void testConnection(provider.id)}
        />
      ) : null}
      <ModelSettingsPanel providerId={provider.id} providerName={provider.name} />
    </li>
  );
}

function KeyState({ provider }: { provider: ProviderView }) {
  if (!provider.hasKey) return <div className="key-state key-state-none">No key</div>;
  return (
    <div className="key-state key-state-set">
      <KeyRound size={12} aria-hidden="true" />
      <span>{provider.keyHint ? `Key set ••••${provider.keyHint}` : "Key set"}</span>
      {provider.key_env ? <span className="key-source">from {provider.key_env}</span> : null}
    </div>
  );
}

/** The action that fixes what failed: the key when it was refused, the base URL when nothing answered there. */
function FixAction({
  test,
  hasKey,
  onAddKey,
  onEdit,
  onRetry,
}: {
  test: Extract<ConnectionTest, { kind: "failed" }>;
  hasKey: boolean;
  onAddKey(): void;
  onEdit(): void;
  onRetry(): void;
}) {
  if (test.fix === "key") {
    return (
      <Button size="sm" icon={<KeyRound size={14} aria-hidden="true" />} onClick={onAddKey}>
        {hasKey ? "Change the key" : "Add a key"}
      </Button>
    );
  }
  if (test.fix === "base_url") {
    return (
      <Button size="sm" icon={<Pencil size={14} aria-hidden="true" />} onClick={onEdit}>
        Edit base URL
      </Button>
    );
  }
  return (
    <Button size="sm" icon={<RotateCcw size={14} aria-hidden="true" />} onClick={onRetry}>
      Try again
    </Button>
  );
}

function ConnectionTestResult({
  name,
  test,
  hasKey,
  onAddKey,
  onEdit,
  onRetry,
}: {
  name: string;
  test: Exclude<ConnectionTest, { kind: "testing" }>;
  hasKey: boolean;
  onAddKey(): void;
  onEdit(): void;
  onRetry(): void;
}) {
  if (test.kind === "failed") {
    return (
      <div className="provider-row-result">
        <InlineAlert
          action={
            <FixAction test={test} hasKey={hasKey} onAddKey={onAddKey} onEdit={onEdit} onRetry={onRetry} />
          }
        >
          {test.message}
        </InlineAlert>
      </div>
    );
  }
  const count = test.models.length;
  return (
    <div className="provider-row-result">
      <p className="test-summary">
        <CircleCheck size={14} aria-hidden="true" className="test-summary-icon" />
        Connected · {count === 1 ? "1 model" : `${count} models`}
      </p>
      {count > 0 ? (
        <ul className="model-chips" role="list" aria-label={`Models of ${name}`}>
          {test.models.map((model) => (
            <li key={model} className="model-chip">
              {model}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">The provider answered but lists no models; you can still type a model id.</p>
      )}
    </div>
  );
}

function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? `${words[0]?.[0] ?? ""}${words[1]?.[0] ?? ""}` : name.slice(0, 2);
  return letters.toUpperCase() || "?";
}
