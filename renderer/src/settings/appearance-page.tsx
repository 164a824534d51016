/** Settings → Appearance: the Theme (`display.theme`: System, Light or Dark), saved at once. */
import { useEffect, useState } from "react";
import { describeError } from "../api/rpc-error.js";
import { useChatSettings } from "../stores/chat/chat-context.js";
import type { Theme } from "../stores/chat/chat-settings-store.js";
import { InlineAlert } from "../ui/inline-alert.js";
import { LoadableView } from "../ui/loadable-view.js";
import { SettingsPage } from "./settings-page.js";

const choices: ReadonlyArray<{ theme: Theme; label: string; explanation: string }> = [
  { theme: "system", label: "System", explanation: "Light or dark, as your system is set." },
  { theme: "light", label: "Light", explanation: "Always light." },
  { theme: "dark", label: "Dark", explanation: "Always dark." },
];

export function AppearancePage() {
  const settings = useChatSettings((s) => s.settings);
  const load = useChatSettings((s) => s.load);
  const save = useChatSettings((s) => s.save);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    void load();
  }, [load]);

  const choose = async (theme: Theme) => {
    setSaving(true);
    setError(null);
    try {
      await save("theme", theme);
    } catch (err) {
      setError(`Couldn't save the theme: ${describeError(err)}`);
    } finally {
      setSaving(false);
    }
  };

  return (
    <SettingsPage headingId="appearance-heading" title="Appearance" description="How Hermes Desktop looks.">
      <div className="card card-padded">
        <LoadableView
          value={settings}
          loadingText="Loading…"
          failureText="Couldn't load the settings"
          onRetry={load}
        >
          {(data) => (
            <>
              <fieldset className="choice-group" disabled={saving}>
                <legend className="choice-legend">Theme</legend>
                {choices.map((choice) => (
                  <label
                    key={choice.theme}
                    className="choice"
                    data-checked={data.theme === choice.theme || undefined}
                  >
                    <input
                      type="radio"
                      name="theme"
                      value={choice.theme}
                      checked={data.theme === choice.theme}
                      aria-label={choice.label}
                      aria-describedby={`theme-${choice.theme}-explanation`}
                      onChange={() => void choose(choice.theme)}
                    />
                    <span className="choice-text">
                      <span className="choice-label">{choice.label}</span>
                      <span className="choice-explanation" id={`theme-${choice.theme}-explanation`}>
                        {choice.explanation}
                      </span>
                    </span>
                  </label>
                ))}
              </fieldset>
              {error ? <InlineAlert>{error}</InlineAlert> : null}
            </>
          )}
        </LoadableView>
      </div>
    </SettingsPage>
  );
}
