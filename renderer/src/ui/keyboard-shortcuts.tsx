/**
 * App-wide keys (Ctrl on Linux and Windows, ⌘ on macOS): new chat, search chats, settings, copy
 * the last reply, and `?` for the "Keyboard shortcuts" sheet. ↑ in an empty composer (edit the
 * last message) lives in the composer.
 */
import { useEffect, useState } from "react";
import { useStores } from "../stores/stores-context.js";
import { isArchived, selectMessages } from "../stores/transcript-store.js";
import { Dialog } from "./dialog.js";

const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);
const mod = isMac ? "⌘" : "Ctrl";

export const shortcuts: ReadonlyArray<{ keys: string; does: string }> = [
  { keys: `${mod}+N`, does: "New chat" },
  { keys: `${mod}+K`, does: "Search chats" },
  { keys: `${mod}+,`, does: "Settings" },
  { keys: `${mod}+Shift+C`, does: "Copy the last reply" },
  { keys: "↑", does: "Edit your last message (in an empty message box)" },
  { keys: "Enter / Shift+Enter", does: "Send / new line" },
  { keys: "Esc", does: "Stop the reply being written" },
  { keys: "?", does: "This list" },
];

const typingIn = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

export function KeyboardShortcuts() {
  const stores = useStores();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const { navigation, chat } = stores;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const modifier = isMac ? event.metaKey : event.ctrlKey;
      const key = event.key.toLowerCase();
      if (modifier && !event.altKey && !event.shiftKey && key === "n") {
        event.preventDefault();
        navigation.getState().goToChat();
        chat.sessions.getState().setQuery("");
        chat.sessions.getState().select(null);
      } else if (modifier && !event.altKey && !event.shiftKey && key === "k") {
        event.preventDefault();
        navigation.getState().goToChat();
        // The search box is there once the chat screen shows.
        requestAnimationFrame(() =>
          document.querySelector<HTMLInputElement>('input[aria-label="Search chats"]')?.focus(),
        );
      } else if (modifier && !event.altKey && !event.shiftKey && key === ",") {
        event.preventDefault();
        navigation.getState().goToSettings();
      } else if (modifier && event.shiftKey && key === "c") {
        const reply = selectMessages(chat.transcript.getState()).findLast(
          (m) => m.role === "assistant" && m.content && !isArchived(m),
        );
        if (!reply) return;
        event.preventDefault();
        void navigator.clipboard.writeText(reply.content).catch(() => undefined);
      } else if (event.key === "?" && !modifier && !event.altKey && !typingIn(event.target)) {
        event.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [stores]);

  return (
    <Dialog open={open} onOpenChange={setOpen} title="Keyboard shortcuts" width="sm">
      <dl className="shortcut-list">
        {shortcuts.map((s) => (
          <div key={s.keys} className="shortcut-row">
            <dt>
              <kbd>{s.keys}</kbd>
            </dt>
            <dd>{s.does}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
