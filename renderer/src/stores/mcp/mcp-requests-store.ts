/**
 * What MCP servers wait on the person for (docs/contract.md §13.3–13.4): tool call approvals,
 * sampling and elicitation requests, plus each MCP tool call's state and progress for its card.
 * Filled by events, refilled by `mcp.pending` after a (re)connect (events sent while the socket
 * was down are lost), and emptied by `mcp.request.closed` or the person's own answer.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type {
  McpApprovalDecision,
  McpApprovalRequest,
  McpElicitationAction,
  McpElicitationRequest,
  McpSamplingRequest,
} from "../../../../electron/host/rpc/methods/mcp.js";
import type { HermesClient, HostEvent } from "../../api/client.js";
import { HermesRpcError } from "../../api/rpc-error.js";

type Payload<T extends HostEvent["type"]> = Extract<HostEvent, { type: T }>["payload"];
export type McpToolCallState = Payload<"mcp.tool.call">;
export type McpToolProgress = Payload<"mcp.tool.progress">;

export interface McpRequestsState {
  approvals: readonly McpApprovalRequest[];
  sampling: readonly McpSamplingRequest[];
  elicitations: readonly McpElicitationRequest[];
  /** By tool call id (= approval request id). */
  toolCalls: Readonly<Record<string, McpToolCallState>>;
  progress: Readonly<Record<string, McpToolProgress>>;
  handleEvent(event: HostEvent): void;
  /** Reads the pending requests again (after a reconnect). */
  loadPending(): Promise<void>;
  /** Each rejects with the host's error (the card shows it and stays); on success the card goes. */
  approve(requestId: string, decision: McpApprovalDecision): Promise<void>;
  respondSampling(requestId: string, decision: "approve" | "deny"): Promise<void>;
  respondElicitation(
    requestId: string,
    action: McpElicitationAction,
    content?: Record<string, unknown>,
  ): Promise<void>;
}

const withoutId = <T extends { requestId: string }>(list: readonly T[], requestId: string): T[] =>
  list.filter((item) => item.requestId !== requestId);
const withItem = <T extends { requestId: string }>(list: readonly T[], item: T): T[] => [
  ...withoutId(list, item.requestId),
  item,
];

export function createMcpRequestsStore(client: HermesClient): StoreApi<McpRequestsState> {
  return createStore<McpRequestsState>()((set, get) => {
    const close = (requestId: string) =>
      set({
        approvals: withoutId(get().approvals, requestId),
        sampling: withoutId(get().sampling, requestId),
        elicitations: withoutId(get().elicitations, requestId),
      });
    /** Sends an answer; a request the host no longer holds (answered elsewhere, timed out) just goes. */
    const answer = async (requestId: string, send: () => Promise<unknown>) => {
      try {
        await send();
      } catch (err) {
        if (!(err instanceof HermesRpcError && err.reason === "not_found")) throw err;
      }
      close(requestId);
    };
    return {
      approvals: [],
      sampling: [],
      elicitations: [],
      toolCalls: {},
      progress: {},
      handleEvent(event) {
        switch (event.type) {
          case "mcp.approval_required":
            set({ approvals: withItem(get().approvals, event.payload) });
            return;
          case "mcp.sampling_requested":
            set({ sampling: withItem(get().sampling, event.payload) });
            return;
          case "mcp.elicitation_requested":
            set({ elicitations: withItem(get().elicitations, event.payload) });
            return;
          case "mcp.request.closed":
            close(event.payload.requestId);
            return;
          case "mcp.tool.call":
            set({ toolCalls: { ...get().toolCalls, [event.payload.requestId]: event.payload } });
            // A call past its approval has no approval card any more (answered elsewhere too).
            if (event.payload.state !== "waiting_approval") {
              set({ approvals: withoutId(get().approvals, event.payload.requestId) });
            }
            return;
          case "mcp.tool.progress":
            set({ progress: { ...get().progress, [event.payload.requestId]: event.payload } });
            return;
          default:
            return;
        }
      },
      async loadPending() {
        try {
          const pending = await client.call("mcp.pending", {});
          set({
            approvals: pending.approvals,
            sampling: pending.sampling,
            elicitations: pending.elicitations,
          });
        } catch (err) {
          // A host without MCP has nothing pending; anything else shows up when the next event comes.
          if (!(err instanceof HermesRpcError && err.reason === "method_not_found"))
            console.warn("Couldn't read MCP requests waiting for an answer", err);
        }
      },
      approve: (requestId, decision) =>
        answer(requestId, () => client.call("mcp.approve", { requestId, decision })),
      respondSampling: (requestId, decision) =>
        answer(requestId, () => client.call("mcp.sampling.respond", { requestId, decision })),
      respondElicitation: (requestId, action, content) =>
        answer(requestId, () =>
          client.call("mcp.elicitation.respond", { requestId, action, ...(content ? { content } : {}) }),
        ),
    };
  });
}
