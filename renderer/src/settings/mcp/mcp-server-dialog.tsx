/** Add MCP server / Edit <id>: the form in a dialog that can't be closed mid-save. */
import { useState } from "react";
import { useMcpServers } from "../../stores/stores-context.js";
import { selectMcpServers } from "../../stores/mcp/mcp-servers-store.js";
import { Dialog } from "../../ui/dialog.js";
import { McpServerForm } from "./mcp-server-form.js";

export type McpServerDialogTarget = { mode: "closed" } | { mode: "add" } | { mode: "edit"; id: string };

export function McpServerDialog({ target, onClose }: { target: McpServerDialogTarget; onClose(): void }) {
  const [saving, setSaving] = useState(false);
  const editing = useMcpServers((s) =>
    target.mode === "edit" ? (selectMcpServers(s).find((server) => server.id === target.id) ?? null) : null,
  );
  // The form takes the server as it was when the dialog opened; later status changes don't reset it.
  const [snapshot, setSnapshot] = useState<{ key: string; server: typeof editing }>({
    key: "",
    server: null,
  });
  const key = target.mode === "edit" ? `edit:${target.id}` : target.mode;
  if (snapshot.key !== key) setSnapshot({ key, server: editing });

  return (
    <Dialog
      open={target.mode !== "closed"}
      onOpenChange={(open) => {
        if (!open && !saving) onClose();
      }}
      title={target.mode === "edit" ? `Edit ${target.id}` : "Add MCP server"}
      description={
        target.mode === "edit"
          ? "Change how Hermes Desktop starts or reaches this server. It restarts when you save."
          : "A program this computer runs (stdio), or a server at a URL."
      }
    >
      {target.mode === "add" ? (
        <McpServerForm key="add" server={null} onDone={onClose} onSavingChange={setSaving} />
      ) : null}
      {target.mode === "edit" ? (
        snapshot.server ? (
          <McpServerForm
            key={target.id}
            server={snapshot.server}
            onDone={onClose}
            onSavingChange={setSaving}
          />
        ) : (
          <p className="dialog-hint">This server was removed meanwhile.</p>
        )
      ) : null}
    </Dialog>
  );
}
