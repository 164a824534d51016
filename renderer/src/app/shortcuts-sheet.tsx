/** The "Keyboard shortcuts" sheet that `?` opens (the keys themselves live in keyboard-shortcuts.tsx). */
import { Dialog } from "../ui/dialog.js";
import { mod } from "./platform-keys.js";

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

export function ShortcutsSheet({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Keyboard shortcuts" width="sm">
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
