/** "Remove <id>?": the confirmation before a server, its block and its secrets are deleted. */
import type { McpServerView } from "../../../../electron/host/rpc/methods/mcp.js";
import { useMcpServers } from "../../stores/stores-context.js";
import { ConfirmRemoveDialog } from "../../ui/confirm-remove-dialog.js";

export function McpRemoveDialog({ server, onClose }: { server: McpServerView | null; onClose(): void }) {
  const remove = useMcpServers((s) => s.remove);
  return (
    <ConfirmRemoveDialog
      open={server !== null}
      title={server ? `Remove ${server.id}?` : "Remove server?"}
      description="Hermes Desktop stops this server, forgets it and deletes its secrets from your system keychain."
      onRemove={async () => {
        if (server) await remove(server.id);
      }}
      onClose={onClose}
    />
  );
}
