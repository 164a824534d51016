/**
 * An MCP tool call waiting for the person (docs/contract.md §13.3): the server, the tool, what it
 * does and the arguments it would get, with Allow once, Always allow and Deny.
 */
import { ShieldQuestion } from "lucide-react";
import type { McpApprovalRequest } from "../../../../electron/host/rpc/methods/mcp.js";
import { useMcpRequests } from "../../stores/stores-context.js";
import { Button } from "../../ui/button.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { useAnswer } from "./use-answer.js";

export function ApprovalCard({ request }: { request: McpApprovalRequest }) {
  const approve = useMcpRequests((s) => s.approve);
  const answer = useAnswer();
  const titleId = `mcp-approval-${request.requestId}`;
  const title = typeof request.annotations.title === "string" ? request.annotations.title : null;
  const changesThings = request.annotations.readOnlyHint !== true;
  return (
    <section
      className="mcp-card"
      aria-labelledby={titleId}
      data-mcp-approval={request.requestId}
      aria-busy={answer.busy || undefined}
    >
      <h2 id={titleId} className="mcp-card-title">
        <ShieldQuestion size={14} aria-hidden="true" /> Waiting for approval: {request.server} wants to run{" "}
        <code className="code-chip">{request.tool}</code>
      </h2>
      {title || request.description ? (
        <p className="mcp-card-text">{[title, request.description].filter(Boolean).join(" — ")}</p>
      ) : null}
      {changesThings && request.annotations.destructiveHint === true ? (
        <p className="mcp-card-text">The server says this tool may change or delete things.</p>
      ) : null}
      <p className="mcp-card-label">Arguments</p>
      <pre tabIndex={0} aria-label="Arguments">
        {JSON.stringify(request.arguments, null, 2)}
      </pre>
      {answer.error ? <InlineAlert>{answer.error}</InlineAlert> : null}
      <div className="mcp-card-actions">
        <Button
          variant="primary"
          size="sm"
          disabled={answer.busy}
          onClick={() => void answer.run(() => approve(request.requestId, "once"))}
        >
          Allow once
        </Button>
        <Button
          size="sm"
          disabled={answer.busy}
          onClick={() => void answer.run(() => approve(request.requestId, "always"))}
        >
          Always allow
        </Button>
        <Button
          variant="danger"
          size="sm"
          disabled={answer.busy}
          onClick={() => void answer.run(() => approve(request.requestId, "deny"))}
        >
          Deny
        </Button>
      </div>
    </section>
  );
}
