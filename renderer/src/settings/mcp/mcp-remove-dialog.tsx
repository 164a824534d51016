/** "Remove <id>?": the confirmation before a server, its block and its secrets are deleted. */
import { useState } from "react";
import type { McpServerView } from "../../../../electron/host/rpc/methods/mcp.js";
import { describeError } from "../../api/rpc-error.js";
import { useMcpServers } from "../../stores/stores-context.js";
import { Button } from "../../ui/button.js";
import { Dialog } from "../../ui/dialog.js";
import { InlineAlert } from "../../ui/inline-alert.js";

export function McpRemoveDialog({ server, onClose }: { server: McpServerView | null; onClose(): void }) {
  const remove = useMcpServers((s) => s.remove);
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (removing) return;
    setError(null);
    onClose();
  };

  async function confirm() {
    if (!server) return;
    setRemoving(true);
    setError(null);
    try {
      await remove(server.id);
      setRemoving(false);
      onClose();
    } catch (err) {
      setError(describeError(err));
      setRemoving(false);
    }
  }

  return (
    <Dialog
      open={server !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={server ? `Remove ${server.id}?` : "Remove server?"}
      description="Hermes Desktop stops this server, forgets it and deletes its secrets from your system keychain."
      width="sm"
    >
      <div className="dialog-body">
        {error ? <InlineAlert>{error}</InlineAlert> : null}
        <footer className="dialog-footer">
          <Button variant="ghost" onClick={close} disabled={removing}>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirm} disabled={removing} busy={removing}>
            {removing ? "Removing…" : "Remove"}
          </Button>
        </footer>
      </div>
    </Dialog>
  );
}
