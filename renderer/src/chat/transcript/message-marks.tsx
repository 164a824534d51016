/** The small status lines under a message: what busy input did with it, how a reply ended. */
import { CircleStop, CornerDownRight, Clock, Shuffle, Unplug } from "lucide-react";
import type { ChatMessage } from "../../stores/chat/chat-model.js";

const dispositionText = {
  queued: "Queued — runs after the current reply",
  steered: "Steered into the reply",
  redirected: "Redirected the reply",
} as const;

export function UserMarks({ message }: { message: ChatMessage }) {
  const disposition = message.meta?.disposition;
  if (!disposition || disposition === "started") return null;
  const pending = message.meta?.pending === true;
  // Once a queued message has run it is an ordinary message: nothing to say about it any more.
  if (disposition === "queued" && !pending) return null;
  const text =
    disposition === "queued"
      ? dispositionText.queued
      : pending && disposition === "steered"
        ? "Steering — enters the reply at its next step"
        : dispositionText[disposition as "steered" | "redirected"];
  const Icon = disposition === "queued" ? Clock : disposition === "steered" ? CornerDownRight : Shuffle;
  return (
    <p className={`message-mark mark-${disposition}`} data-disposition={disposition}>
      <Icon size={12} aria-hidden="true" />
      {text}
    </p>
  );
}

export function ReplyMarks({ message, providerName }: { message: ChatMessage; providerName: string | null }) {
  const fallbackFrom = Array.isArray(message.meta?.fallbackFrom) ? message.meta.fallbackFrom : [];
  return (
    <>
      {message.status === "stopped" ? (
        <p className="message-mark mark-stopped">
          <CircleStop size={12} aria-hidden="true" />
          Stopped
        </p>
      ) : null}
      {message.status === "interrupted" ? (
        <p className="message-mark mark-interrupted">
          <Unplug size={12} aria-hidden="true" />
          Interrupted — the app closed before this reply finished
        </p>
      ) : null}
      {fallbackFrom.length > 0 && providerName ? (
        <p className="message-mark mark-fallback">
          Answered by {providerName}
          {message.meta?.model ? ` (${String(message.meta.model)})` : ""}, a fallback provider
        </p>
      ) : null}
    </>
  );
}
