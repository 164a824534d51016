/**
 * Where older turns were summarised to fit the model's context window (docs/contract.md §9.1): one marker,
 * collapsed to a line, that opens to the summary the model now works from. The turns themselves
 * stay above it, in the store and in search.
 */
import { Layers } from "lucide-react";
import type { ChatMessage } from "../../stores/chat/chat-model.js";

export const isCompactionMarker = (message: ChatMessage): boolean =>
  message.role === "notice" && message.meta?.notice === "compaction";

export function CompactionMarker({ message }: { message: ChatMessage }) {
  const compaction = message.meta?.compaction as { messages?: unknown } | undefined;
  const count = typeof compaction?.messages === "number" ? compaction.messages : null;
  return (
    <details className="compaction-marker" data-message-id={message.id} data-compaction="">
      <summary>
        <Layers size={14} aria-hidden="true" />
        {count === null
          ? "Earlier messages summarised to fit the context window"
          : `${count} earlier message${count === 1 ? "" : "s"} summarised to fit the context window`}
      </summary>
      <p className="compaction-summary">{message.content}</p>
    </details>
  );
}
