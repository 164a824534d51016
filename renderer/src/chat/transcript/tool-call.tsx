/**
 * One tool call of a reply, collapsed: its name and outcome; expanded, the arguments and the
 * result, and under a failed call the plugin's one-sentence explanation.
 */
import { ChevronRight, Wrench } from "lucide-react";
import { useTranscript } from "../../stores/chat/chat-context.js";
import { selectToolResult } from "../../stores/chat/transcript-store.js";
import { McpCallProgress, mcpMetaOf, useMcpCallOutcome } from "../mcp/mcp-call-progress.js";
import { McpResultExtras } from "../mcp/mcp-result-extras.js";

export interface ToolCallView {
  id: string;
  name: string;
  arguments: string;
}

function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

export function ToolCall({ call }: { call: ToolCallView }) {
  const result = useTranscript(selectToolResult(call.id));
  const status = typeof result?.meta?.toolStatus === "string" ? result.meta.toolStatus : null;
  const failed = status !== null && status !== "ok";
  const explanation = typeof result?.meta?.explanation === "string" ? result.meta.explanation : null;
  const mcp = mcpMetaOf(result?.meta);
  const mcpOutcome = useMcpCallOutcome(call.id, mcp, result !== undefined);
  const outcome = mcpOutcome ?? (!result ? "Running…" : failed ? "Failed" : "Done");
  return (
    <div className={`tool-call${failed ? " tool-call-failed" : ""}`}>
      <details>
        <summary>
          <ChevronRight size={14} aria-hidden="true" className="tool-call-chevron" />
          <Wrench size={14} aria-hidden="true" />
          <span className="tool-call-name">{call.name}</span>
          <span className="tool-call-outcome">{outcome}</span>
        </summary>
        <div className="tool-call-body">
          <p className="tool-call-heading">Arguments</p>
          <pre>{pretty(call.arguments) || "{}"}</pre>
          {result ? (
            <>
              <p className="tool-call-heading">Result</p>
              <pre>{pretty(result.content)}</pre>
            </>
          ) : null}
        </div>
      </details>
      {result ? null : <McpCallProgress callId={call.id} />}
      {mcp ? <McpResultExtras meta={mcp} tool={call.name} /> : null}
      {failed && explanation ? <p className="tool-call-explanation">{explanation}</p> : null}
    </div>
  );
}
