/**
 * A server asks for a completion (docs/contract.md §13.4): what it sends (system prompt, messages,
 * max tokens) and the model it would run on, with Approve and Deny.
 */
import { Sparkles } from "lucide-react";
import type { McpSamplingRequest } from "../../../../electron/host/rpc/methods/mcp.js";
import { useMcpRequests } from "../../stores/stores-context.js";
import { Button } from "../../ui/button.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { useAnswer } from "./use-answer.js";

export function SamplingCard({ request }: { request: McpSamplingRequest }) {
  const respond = useMcpRequests((s) => s.respondSampling);
  const answer = useAnswer();
  const titleId = `mcp-sampling-${request.requestId}`;
  return (
    <section
      className="mcp-card"
      aria-labelledby={titleId}
      data-mcp-sampling={request.requestId}
      aria-busy={answer.busy || undefined}
    >
      <h2 id={titleId} className="mcp-card-title">
        <Sparkles size={14} aria-hidden="true" /> {request.server} asks for a completion
      </h2>
      <p className="mcp-card-text">
        It would run on {request.model || "the MCP sampling model"}, up to {request.maxTokens} tokens.
      </p>
      {request.systemPrompt ? (
        <>
          <p className="mcp-card-label">System prompt</p>
          <pre tabIndex={0} aria-label="System prompt">
            {request.systemPrompt}
          </pre>
        </>
      ) : null}
      <p className="mcp-card-label">Messages</p>
      <ol className="mcp-sampling-messages" aria-label="Messages">
        {request.messages.map((message, index) => (
          <li key={index}>
            <span className="mcp-card-label">{message.role === "user" ? "User" : "Assistant"}</span>
            <pre>{message.text}</pre>
          </li>
        ))}
      </ol>
      {answer.error ? <InlineAlert>{answer.error}</InlineAlert> : null}
      <div className="mcp-card-actions">
        <Button
          variant="primary"
          size="sm"
          disabled={answer.busy}
          onClick={() => void answer.run(() => respond(request.requestId, "approve"))}
        >
          Approve
        </Button>
        <Button
          variant="danger"
          size="sm"
          disabled={answer.busy}
          onClick={() => void answer.run(() => respond(request.requestId, "deny"))}
        >
          Deny
        </Button>
      </div>
    </section>
  );
}
