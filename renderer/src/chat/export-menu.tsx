/**
 * "Export chat": the open chat as a Markdown or JSON file (JSON carries its usage and can be
 * imported again), or the whole chat copied as Markdown.
 */
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Download } from "lucide-react";
import { useState } from "react";
import { describeError } from "../api/rpc-error.js";
import { useTranscript } from "../stores/chat/chat-context.js";

function saveFile(filename: string, mimeType: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function ExportMenu() {
  const exportChat = useTranscript((s) => s.exportChat);
  const sessionId = useTranscript((s) => s.sessionId);
  const [status, setStatus] = useState<string | null>(null);
  if (!sessionId) return null;

  const run = (work: () => Promise<string>) => {
    setStatus(null);
    work().then(setStatus, (err: unknown) => setStatus(`Couldn't export the chat: ${describeError(err)}`));
  };

  return (
    <>
      {/* Not modal: a modal menu hides the page (aria-hidden) around the focusable trigger. */}
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className="header-button" aria-label="Export chat" title="Export chat">
          <Download size={14} aria-hidden="true" />
          <span className="header-button-label">Export</span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
            <DropdownMenu.Item
              className="menu-item"
              onSelect={() =>
                run(async () => {
                  const file = await exportChat("markdown");
                  saveFile(file.filename, file.mimeType, file.content);
                  return `Saved ${file.filename}`;
                })
              }
            >
              Markdown
            </DropdownMenu.Item>
            <DropdownMenu.Item
              className="menu-item"
              onSelect={() =>
                run(async () => {
                  const file = await exportChat("json");
                  saveFile(file.filename, file.mimeType, file.content);
                  return `Saved ${file.filename}`;
                })
              }
            >
              JSON
            </DropdownMenu.Item>
            <DropdownMenu.Separator className="menu-separator" />
            <DropdownMenu.Item
              className="menu-item"
              onSelect={() =>
                run(async () => {
                  const file = await exportChat("markdown");
                  await navigator.clipboard.writeText(file.content);
                  return "Copied the whole chat";
                })
              }
            >
              Copy chat
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <span role="status" className="visually-hidden">
        {status}
      </span>
    </>
  );
}
