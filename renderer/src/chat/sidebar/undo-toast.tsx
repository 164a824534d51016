/** "Deleted “…” · Undo · Dismiss" for 10 s (or until dismissed) while a delete waits out its undo window; the delete's error if it failed. */
import { useSessions } from "../../stores/chat/chat-context.js";

export function UndoToast() {
  const pending = useSessions((s) => s.pendingDelete);
  const undo = useSessions((s) => s.undoDelete);
  // Dismissing ends the undo window at once: the chat is deleted now.
  const commit = useSessions((s) => s.commitDelete);
  const error = useSessions((s) => s.deleteError);
  const dismissError = useSessions((s) => s.dismissDeleteError);
  if (error) {
    return (
      <div role="alert" className="toast toast-error">
        <span className="toast-text">{error}</span>
        <button type="button" className="toast-action" onClick={dismissError}>
          Dismiss
        </button>
      </div>
    );
  }
  if (!pending) return null;
  return (
    <div role="status" className="toast">
      <span className="toast-text">Deleted “{pending.title}”</span>
      <button type="button" className="toast-action" onClick={undo}>
        Undo
      </button>
      <button type="button" className="toast-action" onClick={() => void commit()}>
        Dismiss
      </button>
    </div>
  );
}
