/**
 * What MCP servers wait on the person for, between the transcript and the composer: the open
 * chat's tool approvals, and sampling and elicitation requests (of this chat, or of none).
 * Announced politely as they come; each card's buttons are in the tab order after the transcript.
 */
import { useShallow } from "zustand/react/shallow";
import { useTranscript } from "../../stores/chat-context.js";
import { useMcpRequests } from "../../stores/stores-context.js";
import { ApprovalCard } from "./approval-card.js";
import { ElicitationCard } from "./elicitation-card.js";
import { SamplingCard } from "./sampling-card.js";
import "../../styles/mcp.css";

const ofChat = (sessionId: string | null) => (request: { sessionId: string | null }) =>
  request.sessionId === null || request.sessionId === sessionId;

export function McpRequests() {
  const sessionId = useTranscript((s) => s.sessionId);
  const approvals = useMcpRequests(useShallow((s) => s.approvals.filter((a) => a.sessionId === sessionId)));
  const sampling = useMcpRequests(useShallow((s) => s.sampling.filter(ofChat(sessionId))));
  const elicitations = useMcpRequests(useShallow((s) => s.elicitations.filter(ofChat(sessionId))));
  const any = approvals.length + sampling.length + elicitations.length > 0;
  return (
    <div className="mcp-requests" aria-live="polite" aria-relevant="additions" hidden={!any}>
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
