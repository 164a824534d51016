/** Settings → Chat: what a message sent while a reply is being written does (`display.busy_input_mode`). */
import { Check } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { describeError } from "../../api/rpc-error.js";
import { useChatSettings } from "../../stores/chat/chat-context.js";
import type { ChatSettings } from "../../stores/chat/chat-settings-store.js";
import type { BusyInputMode } from "../../stores/chat/chat-model.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { LoadableView } from "../../ui/loadable-view.js";
import { BackupRestoreCard } from "./backup-restore-card.js";
import { MemoryReviewSetting } from "./memory-review-setting.js";
import { SettingsPage } from "../settings-page.js";

const choices: ReadonlyArray<{ mode: BusyInputMode; label: string; explanation: string }> = [
  {
    mode: "queue",
    label: "Queue",
    explanation: "Your message waits and runs as its own turn once the current reply is finished.",
  },
  {
    mode: "steer",
    label: "Steer",
    explanation: "Your message goes into the reply being written, as guidance at its next step.",
  },
  {
    mode: "interrupt",
    label: "Interrupt",
    explanation: "The current reply stops and your message is answered instead.",
  },
];

export function ChatSettingsPage() {
  const load = useChatSettings((s) => s.load);
  const save = useChatSettings((s) => s.save);
  const [saving, setSaving] = useState<BusyInputMode | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void load();
  }, [load]);

  const choose = async (mode: BusyInputMode) => {
    setSaving(mode);
    setSaved(null);
    setError(null);
    try {
      await save("busyInputMode", mode);
      setSaved(`Saved: ${choices.find((c) => c.mode === mode)?.label ?? mode}`);
    } catch (err) {
      setError(`Couldn't save: ${describeError(err)}`);
    } finally {
      setSaving(null);
    }
  };

  const renderChoices = (data: ChatSettings) => {
    const current = saving ?? data.busyInputMode;
    return (
      <>
        <fieldset className="choice-group" disabled={saving !== null}>
          <legend className="choice-legend">When you send while a reply is being written</legend>
          {choices.map((choice) => (
            <label key={choice.mode} className="choice" data-checked={current === choice.mode || undefined}>
              <input
                type="radio"
                name="busy-input-mode"
                value={choice.mode}
                checked={current === choice.mode}
                onChange={() => void choose(choice.mode)}
              />
              <span className="choice-text">
                <span className="choice-label">{choice.label}</span>
                <span className="choice-explanation">{choice.explanation}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <p className="card-footnote">
          Typing <code>/steer</code> before a message always steers, whatever you pick here.
        </p>
        {error ? <InlineAlert>{error}</InlineAlert> : null}
        <p role="status" className="save-status">
          {saved ? (
            <>
              <Check size={14} aria-hidden="true" />
              {saved}
            </>
          ) : null}
        </p>
      </>
    );
  };

  return (
    <SettingsPage
      headingId="chat-settings-heading"
      title="Chat"
      description="How the conversation behaves while a reply is still streaming."
    >
      <ChatSettingsCard title="Busy input" description="Saved right away; applies to every chat.">
        {renderChoices}
      </ChatSettingsCard>
      <ChatSettingsCard
        title="Memory review"
        description="Proposes additions to your Memory note as you chat."
      >
        {(data) => <MemoryReviewSetting interval={data.memoryReviewInterval} />}
      </ChatSettingsCard>
      <BackupRestoreCard />
    </SettingsPage>
  );
}

/** A card on this page. Every card shows part of the same chat settings, so they load (and fail) alike. */
function ChatSettingsCard({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children(data: ChatSettings): ReactNode;
}) {
  const settings = useChatSettings((s) => s.settings);
  const load = useChatSettings((s) => s.load);
  return (
    <div className="card card-padded">
      <div className="card-header">
        <h2 className="card-title">{title}</h2>
        <p className="card-description">{description}</p>
      </div>
      <LoadableView
        value={settings}
        loadingText="Loading chat settings…"
        failureText="Couldn't load chat settings"
        onRetry={load}
      >
        {children}
      </LoadableView>
    </div>
  );
}
