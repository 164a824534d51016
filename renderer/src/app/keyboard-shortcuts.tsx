/**
 * App-wide keys (Ctrl on Linux and Windows, ⌘ on macOS): new chat, search chats, settings, copy
 * the last reply, and `?` for the "Keyboard shortcuts" sheet. ↑ in an empty composer (edit the
 * last message) lives in the composer.
 */
import { useEffect, useState } from "react";
import { useStores } from "../stores/stores-context.js";
import { isArchived, selectMessages } from "../stores/chat/transcript-store.js";
import { deferredComponent, MountOnceNeeded } from "../ui/deferred-component.js";
import { isMac } from "./platform-keys.js";

// The sheet (a dialog) is loaded the first time `?` asks for it.
const ShortcutsSheet = deferredComponent(() => import("./shortcuts-sheet.js").then((m) => m.ShortcutsSheet));
export const preloadShortcutsSheet = (): Promise<unknown> => ShortcutsSheet.preload();

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
    <MountOnceNeeded needed={open}>
      <ShortcutsSheet open={open} onOpenChange={setOpen} />
    </MountOnceNeeded>
  );
}
