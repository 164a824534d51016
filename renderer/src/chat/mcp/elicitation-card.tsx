/**
 * A server asks the person for input (docs/contract.md §13.4). Form mode: a form from its
 * `requestedSchema` with the defaults filled; Submit, Decline, Cancel. A refused answer shows the
 * host's error and the card stays, with what was typed. URL mode: the URL and an Open button.
 */
import { ExternalLink, MessageSquareText } from "lucide-react";
import { useState, type FormEvent, type ReactNode } from "react";
import type { McpElicitationRequest } from "../../../../electron/host/rpc/methods/mcp.js";
import { useMcpRequests } from "../../stores/stores-context.js";
import { Button } from "../../ui/button.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { contentOf, defaultValues, fieldsOf, type ElicitationValues } from "./elicitation-form-model.js";
import { ElicitationFieldControl } from "./elicitation-field.js";
import { useAnswer } from "./use-answer.js";

export function ElicitationCard({ request }: { request: McpElicitationRequest }) {
  const respond = useMcpRequests((s) => s.respondElicitation);
  const answer = useAnswer();
  const titleId = `mcp-elicitation-${request.requestId}`;
  const decline = (
    <>
      <Button
        size="sm"
        disabled={answer.busy}
        onClick={() => void answer.run(() => respond(request.requestId, "decline"))}
      >
        Decline
      </Button>
      <Button
        variant="ghost"
        size="sm"
        disabled={answer.busy}
        onClick={() => void answer.run(() => respond(request.requestId, "cancel"))}
      >
        Cancel
      </Button>
    </>
  );
  return (
    <section
      className="mcp-card"
      aria-labelledby={titleId}
      data-mcp-elicitation={request.requestId}
      aria-busy={answer.busy || undefined}
    >
      <h2 id={titleId} className="mcp-card-title">
        <MessageSquareText size={14} aria-hidden="true" /> {request.server} asks you
      </h2>
      <p className="mcp-card-text">{request.message}</p>
      {request.mode === "url" ? (
        <>
          <p className="mcp-card-text">
            <span className="mcp-card-label">Opens </span>
            <code className="code-chip">{request.url}</code>
          </p>
          {answer.error ? <InlineAlert>{answer.error}</InlineAlert> : null}
          <div className="mcp-card-actions">
            <Button
              variant="primary"
              size="sm"
              icon={<ExternalLink size={14} aria-hidden="true" />}
              disabled={answer.busy}
              onClick={() =>
                void answer.run(async () => {
                  window.open(request.url, "_blank", "noopener,noreferrer");
                  await respond(request.requestId, "accept");
                })
              }
            >
              Open
            </Button>
            {decline}
          </div>
        </>
      ) : (
        <ElicitationForm
          request={request}
          busy={answer.busy}
          error={answer.error}
          onSubmit={(content) => void answer.run(() => respond(request.requestId, "accept", content))}
        >
          {decline}
        </ElicitationForm>
      )}
    </section>
  );
}

function ElicitationForm({
  request,
  busy,
  error,
  onSubmit,
  children,
}: {
  request: Extract<McpElicitationRequest, { mode: "form" }>;
  busy: boolean;
  error: string | null;
  onSubmit(content: Record<string, unknown>): void;
  children: ReactNode;
}) {
  const [fields] = useState(() => fieldsOf(request.requestedSchema));
  const [values, setValues] = useState<ElicitationValues>(() => defaultValues(request.requestedSchema));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(contentOf(fields, values));
  };
  return (
    <form className="mcp-elicitation-form" onSubmit={submit} noValidate>
      {fields.map((field) => (
        <ElicitationFieldControl
          key={field.name}
          field={field}
          value={values[field.name] ?? ""}
          onChange={(value) => setValues((current) => ({ ...current, [field.name]: value }))}
        />
      ))}
      {error ? <InlineAlert>{error}</InlineAlert> : null}
      <div className="mcp-card-actions">
        <Button type="submit" variant="primary" size="sm" disabled={busy}>
          Submit
        </Button>
        {children}
      </div>
    </form>
  );
}
