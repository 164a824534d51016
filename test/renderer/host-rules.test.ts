/**
 * Rules the host owns and the renderer shows, each written once (issue 31): the UI's words and
 * checks are the host's own, read from the same module, not a copy that could drift.
 */
import { describe, expect, it, vi } from "vitest";
import { BUILTIN_SLOTS } from "../../electron/host/models/auxiliary-tasks.js";
import { scopePageRequest } from "../../electron/host/plugins/pages/page-socket-rules.js";
import { proposalOf } from "../../electron/host/sessions/background/background-review.js";
import type { MessageRecord } from "../../electron/host/sessions/store/types.js";
import { isMemoryProposal } from "../../renderer/src/chat/cards/memory-proposal.js";
import { categoryLabel } from "../../renderer/src/chat/usage-popover.js";
import { connectPageFrame, PAGE_BRIDGE_TAG } from "../../renderer/src/plugins/page-bridge.js";
import type { ChatMessage } from "../../renderer/src/stores/chat/chat-model.js";

describe("the renderer shows the host's rules", () => {
  it("names each built-in slot's usage by the label of the host's slot registry", () => {
    expect(BUILTIN_SLOTS.length).toBeGreaterThan(0);
    for (const slot of BUILTIN_SLOTS) expect(categoryLabel(slot.key)).toBe(slot.label);
  });

  it("shows as a Memory card exactly the notices the host reads as a proposal", () => {
    const notices: Record<string, unknown>[] = [
      { notice: "memory_proposal", proposal: { additions: ["likes tea"], state: "pending" } },
      { notice: "memory_note", proposal: { additions: ["likes tea"], state: "pending" } },
      { notice: "Memory_Proposal", proposal: { additions: [], state: "pending" } },
    ];
    for (const meta of notices) {
      const record = { role: "notice", meta } as unknown as MessageRecord;
      const message = { role: "notice", meta } as unknown as ChatMessage;
      expect(isMemoryProposal(message)).toBe(proposalOf(record) !== null);
    }
    expect(notices.filter((meta) => isMemoryProposal({ role: "notice", meta } as never))).toHaveLength(1);
  });

  it("refuses a page's bad params in the window's bridge as the host's page socket does", async () => {
    const TOKEN = "t".repeat(43);
    for (const params of [[1, 2], "text", 7, new Date(0)]) {
      const socket = scopePageRequest(
        { pluginId: "charts", sessionId: "s-1" },
        { jsonrpc: "2.0", id: 1, method: "plugin.charts.chart.suggest", params },
      );
      expect(socket.ok).toBe(false);
      const hostError = socket.ok
        ? null
        : (socket.response as { error: { message: string; data: unknown } }).error;

      let onMessage: ((event: MessageEvent) => void) | null = null;
      const frameWindow = { postMessage: vi.fn() };
      const win = {
        addEventListener: (_: string, fn: typeof onMessage) => void (onMessage = fn),
        removeEventListener: () => {},
      };
      const client = { callPlugin: vi.fn(), onPluginEvent: () => () => {} };
      const frame = { contentWindow: frameWindow } as unknown as HTMLIFrameElement;
      const stop = connectPageFrame(client as never, win as never, frame, {
        pluginId: "charts",
        sessionId: "s-1",
        token: TOKEN,
      });
      onMessage!({
        data: {
          tag: PAGE_BRIDGE_TAG,
          plugin: "charts",
          token: TOKEN,
          kind: "request",
          id: 1,
          method: "chart.suggest",
          params,
        },
        source: frameWindow,
        origin: "null",
      } as unknown as MessageEvent);
      stop();
      expect(client.callPlugin).not.toHaveBeenCalled();
      const answer = frameWindow.postMessage.mock.calls[0]?.[0] as {
        error: { reason: string; message: string };
      };
      expect(answer.error).toEqual({ reason: "invalid_params", message: hostError?.message });
      expect(hostError?.data).toMatchObject({ reason: "invalid_params" });
    }
  });
});
