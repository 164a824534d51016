/**
 * An MCP tool call's live state on its card (docs/contract.md §13.3): "Waiting for approval" until
 * the person answers, then the server's progress (a bar when it gives a total, and its message).
 */
import { useMcpRequests } from "../../stores/stores-context.js";

/** The card's outcome word while the call has no result, or null when it isn't an MCP call. */
export function useMcpCallOutcome(callId: string): string | null {
  const state = useMcpRequests((s) => s.toolCalls[callId]?.state);
  if (state === "waiting_approval") return "Waiting for approval";
  if (state === "denied") return "Denied";
  if (state === "timeout") return "Timed out";
  if (state === "cancelled") return "Cancelled";
  return null;
}

export function McpCallProgress({ callId }: { callId: string }) {
  const progress = useMcpRequests((s) => s.progress[callId]);
  const state = useMcpRequests((s) => s.toolCalls[callId]?.state);
  if (!progress || (state !== undefined && state !== "running")) return null;
  const { total } = progress;
  const label =
    total !== undefined && total > 0
      ? `${Math.round((progress.progress / total) * 100)}%`
      : `${progress.progress}`;
  return (
    <div className="mcp-progress" data-testid="mcp-progress">
      {total !== undefined && total > 0 ? (
        <progress value={progress.progress} max={total} aria-label="Tool progress" />
      ) : null}
      <span role="status">
        {label}
        {progress.message ? ` · ${progress.message}` : ""}
      </span>
    </div>
  );
}
