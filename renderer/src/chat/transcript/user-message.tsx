/**
 * A message the person sent: its text, what busy input did with it, Copy and Edit message. An
 * edited message shows which version it is (‹ 1 / 2 ›) and moves between versions; editing
 * opens the text in place, and Resend sends it as a new version (the turns after it are replaced).
 * A message a plugin injected (docs/contract.md §9.3) is named as from that plugin and cannot be edited; while
 * its turn waits for the chat's background work, it says so.
 */
import { ChevronLeft, ChevronRight, Hourglass, Pencil, Puzzle } from "lucide-react";
import { memo, useState, type KeyboardEvent } from "react";
import type { ChatMessage } from "../../stores/chat/chat-model.js";
import type { VersionInfo } from "../../stores/chat/transcript-store.js";
import { Button } from "../../ui/button.js";
import { IconButton } from "../../ui/icon-button.js";
import { MessageImages } from "./message-images.js";
import { CopyButton } from "./copy-button.js";
import { UserMarks } from "./message-marks.js";

export interface UserMessageProps {
  message: ChatMessage;
  focused: boolean;
  /** Edit is offered when nothing runs and the message went to the model. */
  canEdit: boolean;
  /** Opens the editor at once (↑ in an empty composer). */
  editing: boolean;
  onEditingChange(messageId: string | null): void;
  onResend(messageId: string, text: string): Promise<boolean>;
  versions: VersionInfo | null;
  onSwitchVersion(group: string, version: number): void;
}

export const UserMessage = memo(function UserMessage({
  message,
  focused,
  canEdit,
  editing,
  onEditingChange,
  onResend,
  versions,
  onSwitchVersion,
}: UserMessageProps) {
  const plugin = fromPlugin(message);
  return (
    <article
      className="message message-user"
      aria-label={plugin ? `Message from ${plugin}` : "Your message"}
      data-message-id={message.id}
      data-role="user"
      data-origin={plugin ? `plugin:${plugin}` : undefined}
      data-focused={focused || undefined}
    >
      {plugin ? (
        <p className="message-author message-from-plugin">
          <Puzzle size={12} aria-hidden="true" />
          <span>from {plugin}</span>
          <span className="message-author-note">plugin</span>
        </p>
      ) : null}
      {editing ? (
        <Editor
          initial={message.content}
          onCancel={() => onEditingChange(null)}
          onResend={async (text) => {
            if (await onResend(message.id, text)) onEditingChange(null);
          }}
        />
      ) : (
        <>
          <MessageImages message={message} />
          {message.content ? <div className="message-bubble">{message.content}</div> : null}
        </>
      )}
      <UserMarks message={message} />
      {message.meta?.waitingForBackground === true ? (
        <p className="message-mark mark-waiting" role="status">
          <Hourglass size={12} aria-hidden="true" />
          Waiting for background work to finish (up to 2 minutes) — a message from you goes ahead at once
        </p>
      ) : null}
      {!editing ? (
        <div className="message-actions message-actions-user">
          {versions && versions.total > 1 ? (
            <VersionNav versions={versions} onSwitch={onSwitchVersion} />
          ) : null}
          <CopyButton text={message.content} />
          {canEdit && !plugin ? (
            <IconButton
              label="Edit message"
              icon={<Pencil size={14} aria-hidden="true" />}
              onClick={() => onEditingChange(message.id)}
            />
          ) : null}
        </div>
      ) : null}
    </article>
  );
});

/** The plugin that sent this message (docs/contract.md §9.3: an injected turn), or null for the person's own. */
function fromPlugin(message: ChatMessage): string | null {
  const origin = message.meta?.origin;
  return typeof origin === "string" && origin.startsWith("plugin:") ? origin.slice("plugin:".length) : null;
}

function VersionNav({
  versions,
  onSwitch,
}: {
  versions: VersionInfo;
  onSwitch(group: string, v: number): void;
}) {
  const { group, current, total } = versions;
  return (
    <span className="version-nav">
      <button
        type="button"
        className="icon-button"
        aria-label="Previous version"
        disabled={current <= 1}
        onClick={() => onSwitch(group, current - 1)}
      >
        <ChevronLeft size={14} aria-hidden="true" />
      </button>
      <span className="version-position">
        {current} / {total}
      </span>
      <button
        type="button"
        className="icon-button"
        aria-label="Next version"
        disabled={current >= total}
        onClick={() => onSwitch(group, current + 1)}
      >
        <ChevronRight size={14} aria-hidden="true" />
      </button>
    </span>
  );
}

function Editor({
  initial,
  onCancel,
  onResend,
}: {
  initial: string;
  onCancel(): void;
  onResend(text: string): Promise<void>;
}) {
  const [text, setText] = useState(initial);
  const [sending, setSending] = useState(false);
  const resend = async () => {
    if (!text.trim() || sending) return;
    setSending(true);
    await onResend(text);
    setSending(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    } else if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void resend();
    }
  };
  return (
    <div className="message-editor">
      <textarea
        className="input textarea"
        aria-label="Edited message"
        value={text}
        rows={Math.min(10, Math.max(2, text.split("\n").length))}
        autoFocus
        onFocus={(event) => event.currentTarget.setSelectionRange(text.length, text.length)}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="message-editor-actions">
        <Button size="sm" variant="ghost" onClick={onCancel} disabled={sending}>
          Cancel
        </Button>
        <Button size="sm" variant="primary" onClick={() => void resend()} disabled={sending || !text.trim()}>
          Resend
        </Button>
      </div>
    </div>
  );
}
