/**
 * One chat in the sidebar: opens on click; Pin keeps it at the top; Rename edits the title in
 * place; Delete hides it (with undo).
 */
import { Pencil, Pin, PinOff, Trash2 } from "lucide-react";
import { memo, useState, type FormEvent } from "react";
import { describeError } from "../../api/rpc-error.js";
import type { SearchSnippet, SessionListItem } from "../../stores/chat/chat-model.js";
import { IconButton } from "../../ui/icon-button.js";

export interface SessionRowProps {
  session: SessionListItem;
  current: boolean;
  onOpen(sessionId: string): void;
  onRename(sessionId: string, title: string): Promise<void>;
  onDelete(sessionId: string): void;
  /** Pins or unpins the chat (the chat list offers it; search results don't). */
  onPin?(sessionId: string, pinned: boolean): void;
  /** Shown under the title for a search hit. */
  snippet?: SearchSnippet | null;
  /** Its place in the whole list (1-based) and the list's length, for a list that renders only its first rows. */
  positionInList?: number;
  listLength?: number;
}

export const SessionRow = memo(function SessionRow({
  session,
  current,
  onOpen,
  onRename,
  onDelete,
  onPin,
  snippet,
  positionInList,
  listLength,
}: SessionRowProps) {
  const pinned = session.pinned === true;
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(session.title);
  const [error, setError] = useState<string | null>(null);

  const finish = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!editing) return;
    setEditing(false);
    if (!title.trim() || title.trim() === session.title) return;
    try {
      await onRename(session.sessionId, title);
      setError(null);
    } catch (err) {
      setError(`Couldn't rename: ${describeError(err)}`);
    }
  };

  if (editing) {
    return (
      <li className="session-row session-row-editing">
        <form onSubmit={(event) => void finish(event)}>
          <input
            className="session-title-input"
            aria-label="Chat title"
            value={title}
            autoFocus
            maxLength={500}
            onChange={(event) => setTitle(event.target.value)}
            onBlur={() => void finish()}
            onKeyDown={(event) => {
              if (event.key === "Escape") {
                event.preventDefault();
                setTitle(session.title);
                setEditing(false);
              }
            }}
          />
        </form>
      </li>
    );
  }

  return (
    <li
      className="session-row"
      data-session-id={session.sessionId}
      data-pinned={pinned || undefined}
      aria-posinset={positionInList}
      aria-setsize={listLength}
    >
      <button
        type="button"
        className="session-open"
        aria-current={current ? "page" : undefined}
        onClick={() => onOpen(session.sessionId)}
        title={session.title}
      >
        <span className="session-title">
          {pinned ? <Pin size={11} aria-hidden="true" className="session-pin-mark" /> : null}
          {session.title}
        </span>
        {snippet ? <Snippet snippet={snippet} /> : null}
      </button>
      <span className="session-actions">
        {onPin ? (
          <IconButton
            className="session-action"
            label={pinned ? "Unpin chat" : "Pin chat"}
            icon={pinned ? <PinOff size={13} aria-hidden="true" /> : <Pin size={13} aria-hidden="true" />}
            aria-pressed={pinned}
            onClick={() => onPin(session.sessionId, !pinned)}
          />
        ) : null}
        <IconButton
          className="session-action"
          label="Rename"
          icon={<Pencil size={13} aria-hidden="true" />}
          onClick={() => {
            setTitle(session.title);
            setEditing(true);
          }}
        />
        <IconButton
          className="session-action"
          label="Delete"
          icon={<Trash2 size={13} aria-hidden="true" />}
          onClick={() => onDelete(session.sessionId)}
        />
      </span>
      {error ? (
        <p role="alert" className="session-row-error">
          {error}
        </p>
      ) : null}
    </li>
  );
});

/** The matching excerpt with its hits marked. */
export function Snippet({ snippet }: { snippet: SearchSnippet }) {
  const parts: Array<{ text: string; hit: boolean }> = [];
  let at = 0;
  for (const { start, end } of [...snippet.highlights].sort((a, b) => a.start - b.start)) {
    if (start < at || end <= start) continue;
    if (start > at) parts.push({ text: snippet.text.slice(at, start), hit: false });
    parts.push({ text: snippet.text.slice(start, end), hit: true });
    at = end;
  }
  if (at < snippet.text.length) parts.push({ text: snippet.text.slice(at), hit: false });
  return (
    <span className="session-snippet">
      {parts.map((part, index) =>
        part.hit ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>,
      )}
    </span>
  );
}
