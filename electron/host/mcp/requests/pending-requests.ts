/**
 * Requests waiting for the person (docs/contract.md §13.3, §13.4): tool approvals, sampling and
 * elicitation. Each is announced by its event, answered once (`mcp.approve`, `mcp.*.respond`), and
 * closed with `mcp.request.closed` however it ends (answered, timed out, Stop, a new message, its
 * server gone). An unknown or answered request id → `not_found`.
 */
import type { EventHub } from "../../events.js";
import { RpcError } from "../../rpc/errors.js";
import type {
  McpApprovalDecision,
  McpApprovalRequest,
  McpElicitationRequest,
  McpPendingRequests,
  McpSamplingRequest,
} from "../../rpc/methods/mcp.js";

type Outcome = "approved" | "denied" | "cancelled" | "timeout" | "answered";

type Entry =
  | { kind: "approval"; view: McpApprovalRequest; settle: (decision: McpApprovalDecision) => void }
  | { kind: "sampling"; view: McpSamplingRequest; settle: (decision: "approve" | "deny") => void }
  | {
      kind: "elicitation";
      view: McpElicitationRequest;
      /** Throws an RpcError (invalid content) to keep the request open. */
      settle: (answer: ElicitationAnswer) => void;
    };

export type ElicitationAnswer =
  { action: "accept"; content?: Record<string, unknown> } | { action: "decline" | "cancel" };

export class PendingRequests {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly events: EventHub) {}

  /** Waits for the person's decision on a tool call; the signal (Stop) or a timeout denies it. */
  approval(view: McpApprovalRequest, signal: AbortSignal): Promise<McpApprovalDecision> {
    return this.wait<McpApprovalDecision>(
      view.requestId,
      signal,
      (resolve) => ({ kind: "approval", view, settle: resolve }),
      () => this.events.emit("mcp.approval_required", view.sessionId, view),
      "deny",
    );
  }

  sampling(view: McpSamplingRequest, signal: AbortSignal, timeoutMs: number): Promise<"approve" | "deny"> {
    return this.wait<"approve" | "deny">(
      view.requestId,
      signal,
      (resolve) => ({ kind: "sampling", view, settle: resolve }),
      () => this.events.emit("mcp.sampling_requested", null, view),
      "deny",
      timeoutMs,
    );
  }

  elicitation(
    view: McpElicitationRequest,
    signal: AbortSignal,
    timeoutMs: number,
    check: (answer: ElicitationAnswer) => ElicitationAnswer,
  ): Promise<ElicitationAnswer> {
    return this.wait<ElicitationAnswer>(
      view.requestId,
      signal,
      (resolve) => ({ kind: "elicitation", view, settle: (answer) => resolve(check(answer)) }),
      () => this.events.emit("mcp.elicitation_requested", null, view),
      { action: "cancel" },
      timeoutMs,
    );
  }

  answerApproval(requestId: string, decision: McpApprovalDecision): void {
    const entry = this.take(requestId, "approval");
    entry.settle(decision);
  }

  answerSampling(requestId: string, decision: "approve" | "deny"): void {
    this.take(requestId, "sampling").settle(decision);
  }

  answerElicitation(requestId: string, answer: ElicitationAnswer): void {
    const entry = this.find(requestId, "elicitation");
    // Invalid content throws here and the request stays open.
    entry.settle(answer);
  }

  /** Denies a session's waiting approvals (its Stop, or a new message from the person). */
  denyApprovals(sessionId: string): void {
    for (const entry of [...this.entries.values()]) {
      if (entry.kind === "approval" && entry.view.sessionId === sessionId) entry.settle("deny");
    }
  }

  /** Ends every request of a server that went away. */
  dropServer(server: string): void {
    for (const entry of [...this.entries.values()]) {
      if (entry.view.server !== server) continue;
      if (entry.kind === "approval") entry.settle("deny");
      else if (entry.kind === "sampling") entry.settle("deny");
      else entry.settle({ action: "cancel" });
    }
  }

  list(sessionId?: string): McpPendingRequests {
    const out: McpPendingRequests = { approvals: [], sampling: [], elicitations: [] };
    for (const entry of this.entries.values()) {
      if (entry.kind === "approval") {
        if (!sessionId || entry.view.sessionId === sessionId) out.approvals.push(entry.view);
      } else if (entry.kind === "sampling") out.sampling.push(entry.view);
      else out.elicitations.push(entry.view);
    }
    return out;
  }

  private wait<T>(
    requestId: string,
    signal: AbortSignal,
    make: (resolve: (value: T) => void) => Entry,
    announce: () => void,
    onAbort: T,
    timeoutMs?: number,
  ): Promise<T> {
    return new Promise<T>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (value: T, outcome: Outcome) => {
        if (!this.entries.has(requestId)) return;
        this.entries.delete(requestId);
        clearTimeout(timer);
        signal.removeEventListener("abort", aborted);
        this.events.emit("mcp.request.closed", null, { requestId, kind: entry.kind, outcome });
        resolve(value);
      };
      const entry = make((value) => finish(value, outcomeOf(value)));
      const aborted = () => finish(onAbort, "cancelled");
      if (signal.aborted) return resolve(onAbort);
      this.entries.set(requestId, entry);
      signal.addEventListener("abort", aborted, { once: true });
      if (timeoutMs !== undefined) timer = setTimeout(() => finish(onAbort, "timeout"), timeoutMs);
      announce();
    });
  }

  private take<K extends Entry["kind"]>(requestId: string, kind: K): Extract<Entry, { kind: K }> {
    return this.find(requestId, kind);
  }

  private find<K extends Entry["kind"]>(requestId: string, kind: K): Extract<Entry, { kind: K }> {
    const entry = this.entries.get(requestId);
    if (!entry || entry.kind !== kind) {
      throw new RpcError(
        "not_found",
        `No ${kind} request "${requestId}" is waiting; it was answered or has ended.`,
      );
    }
    return entry as Extract<Entry, { kind: K }>;
  }
}

function outcomeOf(value: unknown): Outcome {
  if (value === "once" || value === "always" || value === "approve") return "approved";
  if (value === "deny") return "denied";
  if (typeof value === "object" && value !== null) {
    const action = (value as { action?: string }).action;
    return action === "accept" ? "answered" : action === "decline" ? "denied" : "cancelled";
  }
  return "answered";
}
