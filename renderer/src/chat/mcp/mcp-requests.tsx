/**
 * What MCP servers wait on the person for, between the transcript and the composer: the open
 * chat's tool approvals, and every sampling and elicitation request (a server's request holds
 * a tool call wherever it runs, so it shows in whichever chat is open). Announced politely as
 * they come; each card's buttons are in the tab order after the transcript.
 */
import { useShallow } from "zustand/react/shallow";
import { useTranscript } from "../../stores/chat/chat-context.js";
import { useMcpRequests } from "../../stores/stores-context.js";
import { ApprovalCard } from "./approval-card.js";
import { ElicitationCard } from "./elicitation-card.js";
import { SamplingCard } from "./sampling-card.js";
import "../../styles/mcp.css";

export function McpRequests() {
  const sessionId = useTranscript((s) => s.sessionId);
  const approvals = useMcpRequests(useShallow((s) => s.approvals.filter((a) => a.sessionId === sessionId)));
  const sampling = useMcpRequests((s) => s.sampling);
  const elicitations = useMcpRequests((s) => s.elicitations);
  // Always in the page (empty when nothing waits): a live region must exist before what it announces.
  return (
    <div className="mcp-requests" aria-live="polite" aria-relevant="additions">
      {approvals.map((request) => (
        <ApprovalCard key={request.requestId} request={request} />
      ))}
      {sampling.map((request) => (
        <SamplingCard key={request.requestId} request={request} />
      ))}
      {elicitations.map((request) => (
        <ElicitationCard key={request.requestId} request={request} />
      ))}
    </div>
  );
}
