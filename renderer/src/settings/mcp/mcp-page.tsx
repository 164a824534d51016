/**
 * Settings → MCP (docs/contract.md §13.5): every server with its status, tools and last error;
 * Add (a command or a URL), Import (Claude Desktop's JSON), and per server Edit, Enable/Disable,
 * Restart, View log and Remove.
 */
import { FileInput, Plug, Plus } from "lucide-react";
import { useEffect, useState } from "react";
import type { McpServerView } from "../../../../electron/host/rpc/methods/mcp.js";
import { useMcpServers } from "../../stores/stores-context.js";
import { Button } from "../../ui/button.js";
import { EmptyState } from "../../ui/empty-state.js";
import { SettingsList } from "../settings-list.js";
import { SettingsPage } from "../settings-page.js";
import { McpImportDialog } from "./mcp-import-dialog.js";
import { McpLogDialog } from "./mcp-log-dialog.js";
import { McpRemoveDialog } from "./mcp-remove-dialog.js";
import { McpServerDialog, type McpServerDialogTarget } from "./mcp-server-dialog.js";
import { McpServerRow } from "./mcp-server-row.js";
import "../../styles/mcp.css";

export function McpPage() {
  const servers = useMcpServers((s) => s.servers);
  const load = useMcpServers((s) => s.load);
  const [dialog, setDialog] = useState<McpServerDialogTarget>({ mode: "closed" });
  const [importing, setImporting] = useState(false);
  const [logOf, setLogOf] = useState<string | null>(null);
  const [removing, setRemoving] = useState<McpServerView | null>(null);

  useEffect(() => {
    void load();
  }, [load]);

  const addButton = (
    <Button
      variant="primary"
      icon={<Plus size={16} aria-hidden="true" />}
      onClick={() => setDialog({ mode: "add" })}
    >
      Add server
    </Button>
  );
  const importButton = (
    <Button icon={<FileInput size={16} aria-hidden="true" />} onClick={() => setImporting(true)}>
      Import
    </Button>
  );

  return (
    <SettingsPage
      headingId="mcp-heading"
      title="MCP"
      description="MCP servers give the chat tools, resources and prompts. Tool calls wait for your OK unless you allow them."
      action={
        <div className="mcp-page-actions">
          {importButton}
          {/* Always here (not in the empty state): focus comes back to it when its dialog closes. */}
          {addButton}
        </div>
      }
    >
      <SettingsList
        value={servers}
        loadingText="Loading MCP servers…"
        failureText="Couldn't load your MCP servers"
        onRetry={load}
        label="MCP servers"
        empty={
          <EmptyState icon={<Plug size={20} />} title="No MCP servers yet">
            Add a server that runs on this computer or one at a URL, or import the mcpServers JSON of Claude
            Desktop.
          </EmptyState>
        }
        renderRow={(server) => (
          <McpServerRow
            server={server}
            onEdit={() => setDialog({ mode: "edit", id: server.id })}
            onViewLog={() => setLogOf(server.id)}
            onRemove={() => setRemoving(server)}
          />
        )}
      />
      <McpServerDialog target={dialog} onClose={() => setDialog({ mode: "closed" })} />
      <McpImportDialog open={importing} onClose={() => setImporting(false)} />
      <McpLogDialog serverId={logOf} onClose={() => setLogOf(null)} />
      <McpRemoveDialog server={removing} onClose={() => setRemoving(null)} />
    </SettingsPage>
  );
}
