/**
 * The suggested next message (the `next-prompt` plugin) as a chip above the message box: a click
 * puts its text in the box, ready to edit or send; × dismisses it.
 */
import { Sparkles, X } from "lucide-react";
import { useNextPrompt } from "../../stores/chat/chat-context.js";

export function NextPromptChip({
  sessionId,
  onPick,
}: {
  sessionId: string | null;
  onPick(text: string): void;
}) {
  const text = useNextPrompt((s) => (sessionId ? s.suggestions[sessionId] : undefined));
  const dismiss = useNextPrompt((s) => s.dismiss);
  if (!sessionId || !text) return null;
  return (
    <div className="next-prompt" data-testid="next-prompt">
      <button
        type="button"
        className="next-prompt-chip"
        title="Suggested next message: click to put it in the message box"
        onClick={() => {
          dismiss(sessionId);
          onPick(text);
        }}
      >
        <Sparkles size={14} aria-hidden="true" />
        <span className="next-prompt-text">{text}</span>
      </button>
      <button
        type="button"
        className="icon-button next-prompt-dismiss"
        aria-label="Dismiss suggestion"
        onClick={() => dismiss(sessionId)}
      >
        <X size={14} aria-hidden="true" />
      </button>
    </div>
  );
}
