/** A server's status in one word, coloured by what it means (a spinner while it starts). */
import type { McpStatus } from "../../../../electron/host/rpc/methods/mcp.js";
import { Spinner } from "../../ui/spinner.js";

const statusLabel: Readonly<Record<McpStatus, string>> = {
  disabled: "Disabled",
  starting: "Starting",
  ready: "Ready",
  error: "Error",
};

export function McpStatusBadge({ status }: { status: McpStatus }) {
  return (
    <span className={`badge mcp-status mcp-status-${status}`} data-status={status}>
      {status === "starting" ? <Spinner size={11} /> : <span className="mcp-status-dot" aria-hidden="true" />}
      {statusLabel[status]}
    </span>
  );
}
