/** One MCP server: id, transport, status (and its error), counts, its switch and actions, its tools. */
import { FileText, Pencil, RotateCcw, Trash } from "lucide-react";
import type { McpServerView } from "../../../../electron/host/rpc/methods/mcp.js";
import { useMcpServers } from "../../stores/stores-context.js";
import { Button } from "../../ui/button.js";
import { DismissibleAlert, InlineAlert } from "../../ui/inline-alert.js";
import { Switch } from "../../ui/switch.js";
import { McpOAuthLine } from "./mcp-oauth-line.js";
import { McpStatusBadge } from "./mcp-status-badge.js";
import { McpToolList } from "./mcp-tool-list.js";

const transportLabel = { stdio: "stdio", streamable_http: "Streamable HTTP", sse: "SSE" } as const;
const approvalLabel = {
  ask: "Asks before every call",
  read_only: "Asks for tools that change things",
  never: "Never asks",
} as const;

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function McpServerRow({
  server,
  onEdit,
  onViewLog,
  onRemove,
}: {
  server: McpServerView;
  onEdit(): void;
  onViewLog(): void;
  onRemove(): void;
}) {
  const action = useMcpServers((s) => s.actions[server.id]);
  const setEnabled = useMcpServers((s) => s.setEnabled);
  const restart = useMcpServers((s) => s.restart);
  const clearAction = useMcpServers((s) => s.clearAction);
  const headingId = `mcp-${server.id}-name`;
  const pending = action?.kind === "pending" ? action.what : null;
  const where = server.config.command
    ? [server.config.command, ...(server.config.args ?? [])].join(" ")
    : (server.config.url ?? "");

  return (
    <li className="settings-row card mcp-row" data-mcp-server={server.id} aria-labelledby={headingId}>
      <div className="settings-row-main">
        <div className="settings-row-text">
          <div className="mcp-row-title">
            <h2 id={headingId} className="mcp-name">
              {server.id}
            </h2>
            <McpStatusBadge status={server.status} />
            <span className="badge mcp-transport">{transportLabel[server.transport]}</span>
          </div>
          <p className="mcp-where" title={where}>
            {where}
          </p>
          <p className="mcp-facts">
            {server.serverInfo ? (
              <span>
                {server.serverInfo.title ?? server.serverInfo.name} {server.serverInfo.version}
              </span>
            ) : null}
            <span>{count(server.tools.length, "tool", "tools")}</span>
            {server.resources ? <span>{count(server.resources, "resource", "resources")}</span> : null}
            {server.prompts ? <span>{count(server.prompts, "prompt", "prompts")}</span> : null}
            <span>{approvalLabel[server.approval]}</span>
            {server.restarts ? <span>{count(server.restarts, "restart", "restarts")}</span> : null}
          </p>
        </div>
        <div className="mcp-row-toggle">
          <Switch
            checked={server.enabled}
            onCheckedChange={(enabled) => void setEnabled(server.id, enabled)}
            label={`Enable ${server.id}`}
            busy={pending === "enable" || pending === "disable"}
          />
        </div>
      </div>
      {server.oauth ? (
        <div className="mcp-row-notes">
          <McpOAuthLine serverId={server.id} oauth={server.oauth} disabled={!server.enabled} />
        </div>
      ) : null}
      {server.error ? (
        <div className="mcp-row-notes">
          <InlineAlert>
            <span className="mcp-error" data-testid="mcp-error">
              {server.error}
            </span>
          </InlineAlert>
        </div>
      ) : null}
      {action?.kind === "failed" ? (
        <div className="mcp-row-notes">
          <DismissibleAlert onDismiss={() => clearAction(server.id)}>{action.message}</DismissibleAlert>
        </div>
      ) : null}
      <div className="mcp-row-actions">
        <Button
          size="sm"
          icon={<RotateCcw size={14} aria-hidden="true" />}
          onClick={() => void restart(server.id)}
          disabled={!server.enabled || pending === "restart"}
          busy={pending === "restart"}
          aria-label={`Restart ${server.id}`}
        >
          Restart
        </Button>
        <Button
          size="sm"
          variant="ghost"
          icon={<Pencil size={14} aria-hidden="true" />}
          onClick={onEdit}
          aria-label={`Edit ${server.id}`}
        >
          Edit
        </Button>
        <Button
          size="sm"
          variant="ghost"
          icon={<FileText size={14} aria-hidden="true" />}
          onClick={onViewLog}
          aria-label={`View log of ${server.id}`}
        >
          View log
        </Button>
        <Button
          size="sm"
          variant="ghost"
          icon={<Trash size={14} aria-hidden="true" />}
          onClick={onRemove}
          aria-label={`Remove ${server.id}`}
        >
          Remove
        </Button>
      </div>
      {server.tools.length ? <McpToolList server={server} pendingTool={pending} /> : null}
    </li>
  );
}
