/**
 * An MCP tool call's live state on its card (docs/contract.md §13.3): "Waiting for approval" until
 * the person answers, then the server's progress (a bar when it gives a total, and its message);
 * once it ended, a denial, timeout or cancel says so (from the result's `meta.mcp`, so a reload
 * keeps it).
 */
import { useMcpRequests } from "../../stores/stores-context.js";

const endedWords: Partial<Record<string, string>> = {
  denied: "Denied",
  timeout: "Timed out",
  cancelled: "Cancelled",
};

/** The MCP part of a tool result's meta (`meta.mcp`), as the host writes it. */
export interface McpResultMeta {
  state?: string;
  images?: { mimeType: string; data: string }[];
  links?: { uri: string; name: string; mimeType?: string }[];
}

/**
 * The MCP part of a tool result's meta, with the result's images: the host keeps them as the tool
 * message's `meta.toolImages` (they also go to the model); results stored before that kept them in
 * `meta.mcp.images`.
 */
export const mcpMetaOf = (meta: { [key: string]: unknown } | undefined): McpResultMeta | null => {
  if (typeof meta?.mcp !== "object" || meta.mcp === null) return null;
  const mcp = meta.mcp as McpResultMeta;
  const toolImages = meta.toolImages;
  return Array.isArray(toolImages) ? { ...mcp, images: toolImages as McpResultMeta["images"] & object } : mcp;
};

/** The card's outcome word for an MCP call, or null to keep the card's own. */
export function useMcpCallOutcome(
  callId: string,
  result: McpResultMeta | null,
  hasResult: boolean,
): string | null {
  const live = useMcpRequests((s) => s.toolCalls[callId]?.state);
  // A call Stop ended has no result message: its last state says how it ended.
  if (!hasResult)
    return live === "waiting_approval" ? "Waiting for approval" : (endedWords[live ?? ""] ?? null);
  return endedWords[result?.state ?? ""] ?? null;
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
