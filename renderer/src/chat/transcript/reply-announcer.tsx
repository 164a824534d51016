/**
 * The one announcement a reply makes: the conversation is not a live region (a screen reader would
 * read every streamed token), so when a reply that streamed here ends, this polite status says so
 * once. A failed reply is announced by its own error alert.
 */
import { useEffect, useState } from "react";
import { useStores } from "../../stores/stores-context.js";
import { selectMessages, type TranscriptState } from "../../stores/chat/transcript-store.js";

const endings: Readonly<Record<string, string>> = {
  complete: "Reply finished.",
  stopped: "Reply stopped.",
  interrupted: "Reply interrupted.",
};

/** The last reply, as `id status`, or null. */
function lastReply(state: TranscriptState): string | null {
  const messages = selectMessages(state);
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "assistant") return `${message.id} ${message.status}`;
  }
  return null;
}

export function ReplyAnnouncer() {
  const transcript = useStores().chat.transcript;
  const [announcement, setAnnouncement] = useState("");
  useEffect(() => {
    let streamingId: string | null = null;
    let last: string | null = null;
    const follow = (state: TranscriptState) => {
      const now = lastReply(state);
      if (now === last || now === null) return;
      last = now;
      const [id, status] = now.split(" ") as [string, string];
      if (status === "streaming") {
        streamingId = id;
        setAnnouncement("");
      } else if (id === streamingId) {
        streamingId = null;
        setAnnouncement(endings[status] ?? "");
      }
    };
    follow(transcript.getState());
    return transcript.subscribe(follow);
  }, [transcript]);
  return (
    <p role="status" className="visually-hidden" data-testid="reply-announcement">
      {announcement}
    </p>
  );
}
