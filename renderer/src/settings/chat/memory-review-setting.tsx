/**
 * Settings → Chat → Memory review (`memory.nudge_interval`): how many of your turns pass between
 * two background reviews that propose additions to the Memory note; 0 turns it off.
 */
import { Check } from "lucide-react";
import { useState } from "react";
import { describeError } from "../../api/rpc-error.js";
import { useChatSettings } from "../../stores/chat/chat-context.js";
import { Button } from "../../ui/button.js";
import { InlineAlert } from "../../ui/inline-alert.js";

export function MemoryReviewSetting({ interval }: { interval: number }) {
  const save = useChatSettings((s) => s.save);
  // null: nothing typed, the field shows the saved value (also after a change made elsewhere).
  const [typed, setTyped] = useState<string | null>(null);
  const draft = typed ?? String(interval);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const apply = async () => {
    const value = Number(draft.trim());
    setStatus(null);
    if (!/^\d+$/.test(draft.trim()) || value > 1000) {
      setError("Enter a whole number of turns from 0 (off) to 1000.");
      return;
    }
    setError(null);
    setSaving(true);
    try {
      await save("memoryReviewInterval", value);
      setTyped(null);
      setStatus(value === 0 ? "Saved: memory review off" : `Saved: every ${value} turns`);
    } catch (err) {
      setError(`Couldn't save: ${describeError(err)}`);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="memory-review-setting"
      onSubmit={(event) => {
        event.preventDefault();
        void apply();
      }}
    >
      <label className="field-label" htmlFor="memory-review-interval">
        Review every
      </label>
      <div className="memory-review-row">
        <input
          id="memory-review-interval"
          className="input"
          inputMode="numeric"
          aria-describedby="memory-review-hint"
          value={draft}
          onChange={(event) => setTyped(event.target.value)}
        />
        <span>turns</span>
        <Button type="submit" size="sm" busy={saving} disabled={saving || draft === String(interval)}>
          Save
        </Button>
      </div>
      <p id="memory-review-hint" className="card-footnote">
        After that many of your messages, your agent reads the chat in the background and proposes lines for
        Memory, which you add or dismiss. 0 turns it off. A new message cancels a review still running.
      </p>
      {error ? <InlineAlert>{error}</InlineAlert> : null}
      <p role="status" className="save-status">
        {status ? (
          <>
            <Check size={14} aria-hidden="true" />
            {status}
          </>
        ) : null}
      </p>
    </form>
  );
}
