/**
 * One message of the transcript. Memoized on the message object: the store replaces only the
 * message that changed, so a streamed delta re-renders one row, not the whole transcript.
 */
import { Bot, CircleExclamationPoint, Info, Puzzle, RotateCcw } from "lucide-react";
import { memo } from "react";
import type { ChatMessage } from "../../stores/chat/chat-model.js";
import type { TranscriptMessage } from "../../stores/chat/transcript-store.js";
import { CompactionMarker, isCompactionMarker } from "./compaction-marker.js";
import { useNavigation } from "../../stores/stores-context.js";
import { CopyButton } from "./copy-button.js";
import { LazyMarkdown } from "../markdown/lazy-markdown.js";
import { isMemoryProposal, MemoryProposal } from "../cards/memory-proposal.js";
import { ReplyMarks } from "./message-marks.js";
import { ToolCall, type ToolCallView } from "./tool-call.js";

export interface MessageRowProps {
  message: TranscriptMessage;
  /** Shows Regenerate (the last reply, when no turn runs). */
  canRegenerate: boolean;
  onRegenerate(): void;
  providerName: string | null;
  /** The message an opened search hit pointed at. */
  focused?: boolean;
  /**
   * Its error came in while this chat was shown, in the latest turn: announced (role="alert").
   * A past error is shown, not announced again.
   */
  announceError?: boolean;
}

function toolCallsOf(message: ChatMessage): ToolCallView[] {
  const calls = message.meta?.toolCalls;
  return Array.isArray(calls) ? (calls as ToolCallView[]) : [];
}

export const MessageRow = memo(function MessageRow({
  message,
  canRegenerate,
  onRegenerate,
  providerName,
  focused = false,
  announceError = false,
}: MessageRowProps) {
  if (message.role === "tool" || message.role === "system") return null;
  if (isCompactionMarker(message)) return <CompactionMarker message={message} />;
  if (isMemoryProposal(message)) return <MemoryProposal message={message} />;
  if (message.role === "notice") {
    return (
      <p className="message-notice" data-message-id={message.id}>
        <Info size={14} aria-hidden="true" />
        {message.content}
      </p>
    );
  }
  const streaming = message.status === "streaming";
  const toolCalls = toolCallsOf(message);
  const error = message.status === "error" ? (message.meta?.error ?? "The reply failed.") : null;
  return (
    <article
      className="message message-assistant"
      aria-label="Reply"
      aria-busy={streaming || undefined}
      data-message-id={message.id}
      data-role="assistant"
      data-status={message.status}
      data-focused={focused || undefined}
    >
      <div className="message-avatar" aria-hidden="true">
        {typeof message.meta?.pluginId === "string" ? <Puzzle size={16} /> : <Bot size={16} />}
      </div>
      <div className="message-main">
        {typeof message.meta?.pluginId === "string" ? (
          <header className="message-author">
            <Puzzle size={12} aria-hidden="true" />
            <span>{message.meta.pluginId}</span>
            <span className="message-author-note">plugin</span>
          </header>
        ) : null}
        {message.content ? (
          <LazyMarkdown text={message.content} streaming={streaming} streamed={message.streamed} />
        ) : streaming && toolCalls.length === 0 ? (
          <p className="typing" aria-label="Writing a reply">
            <span />
            <span />
            <span />
          </p>
        ) : null}
        {streaming && message.content ? <span className="stream-caret" aria-hidden="true" /> : null}
        {toolCalls.map((call) => (
          <ToolCall key={call.id} call={call} />
        ))}
        {error ? (
          <div role={announceError ? "alert" : undefined} className="message-error">
            <CircleExclamationPoint size={14} aria-hidden="true" />
            <span>{String(error)}</span>
            {typeof message.meta?.missingKey === "string" ? (
              <AddKeyButton providerId={message.meta.missingKey} />
            ) : null}
            {message.meta?.missingModel ? <ChooseModelButton /> : null}
            {canRegenerate ? (
              <button type="button" className="link-button" onClick={onRegenerate}>
                Resend
              </button>
            ) : null}
          </div>
        ) : null}
        <ReplyMarks message={message} providerName={providerName} />
        {!streaming ? (
          <div className="message-actions">
            {message.content ? <CopyButton text={message.content} /> : null}
            {canRegenerate && !error ? (
              <button type="button" className="icon-text-button" onClick={onRegenerate}>
                <RotateCcw size={14} aria-hidden="true" />
                <span className="icon-text-button-label">Regenerate</span>
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
    </article>
  );
});

/** Offered when the provider said the model does not exist: the chat's model list, to pick one it has. */
function ChooseModelButton() {
  const openPicker = useNavigation((s) => s.setChatModelPickerOpen);
  return (
    <button type="button" className="link-button" onClick={() => openPicker(true)}>
      Choose a model
    </button>
  );
}

/** Offered when a provider refused a reply because no key is stored for it. */
function AddKeyButton({ providerId }: { providerId: string }) {
  const openEdit = useNavigation((s) => s.openEditProvider);
  return (
    <button type="button" className="link-button" onClick={() => openEdit(providerId)}>
      Add a key
    </button>
  );
}
