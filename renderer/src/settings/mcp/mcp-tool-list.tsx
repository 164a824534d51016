/** A ready server's tools: each with its on/off switch and Ask / Always allow (docs/contract.md §13.5). */
import type { McpServerView } from "../../../../electron/host/rpc/methods/mcp.js";
import { useMcpServers } from "../../stores/stores-context.js";
import { Switch } from "../../ui/switch.js";

export function McpToolList({ server, pendingTool }: { server: McpServerView; pendingTool: string | null }) {
  const setTool = useMcpServers((s) => s.setTool);
  const listId = `mcp-${server.id}-tools`;
  return (
    <details className="mcp-tools">
      <summary>Tools ({server.tools.length})</summary>
      <ul id={listId} className="mcp-tool-list" aria-label={`Tools of ${server.id}`}>
        {server.tools.map((tool) => {
          const busy = pendingTool === `tool:${tool.name}`;
          return (
            <li key={tool.name} className="mcp-tool" data-tool={tool.name}>
              <Switch
                checked={tool.enabled}
                onCheckedChange={(enabled) => void setTool(server.id, tool.name, { enabled })}
                label={`Use ${tool.name}`}
                busy={busy}
              />
              <div className="mcp-tool-text">
                <span className="mcp-tool-name">
                  {tool.name}
                  {tool.readOnly ? <span className="badge mcp-tool-readonly">read-only</span> : null}
                </span>
                {tool.description ? <span className="mcp-tool-description">{tool.description}</span> : null}
              </div>
              <select
                className="input mcp-tool-approval"
                aria-label={`Approval for ${tool.name}`}
                value={tool.approval}
                disabled={!tool.enabled || busy}
                onChange={(e) =>
                  void setTool(server.id, tool.name, {
                    approval: e.target.value === "allow" ? "allow" : "ask",
                  })
                }
              >
                <option value="ask">Ask</option>
                <option value="allow">Always allow</option>
              </select>
            </li>
          );
        })}
      </ul>
    </details>
  );
}
