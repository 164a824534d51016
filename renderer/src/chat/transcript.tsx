/**
 * The open session's messages, kept scrolled to the bottom while a reply streams unless the user
 * scrolled up to read. Rows are memoized; off-screen rows skip layout and paint
 * (`content-visibility: auto` in transcript.css), which keeps long transcripts fast.
 */
import { useCallback, useEffect, useRef, type ReactNode } from "react";
import { useTranscript } from "../stores/chat-context.js";
import { useProviders } from "../stores/stores-context.js";
import { selectMessages, selectRegenerableId } from "../stores/transcript-store.js";
import { selectProviderList } from "../stores/providers-store.js";
import { InlineAlert } from "../ui/inline-alert.js";
import { LoadFailedAlert } from "../ui/loadable-view.js";
import { LoadingLine } from "../ui/spinner.js";
import { MessageRow } from "./message-row.js";

const stickThresholdPx = 48;

export function Transcript({ empty }: { empty: ReactNode }) {
  const state = useTranscript((s) => s.messages.kind);
  const failure = useTranscript((s) => (s.messages.kind === "failed" ? s.messages.message : null));
  const reload = useTranscript((s) => s.reload);
  const sessionId = useTranscript((s) => s.sessionId);

  if (state === "loading") {
    return (
      <div className="transcript transcript-centered">
        <LoadingLine>Loading the conversation…</LoadingLine>
      </div>
    );
  }
  if (failure !== null) {
    return (
      <div className="transcript transcript-centered">
        <LoadFailedAlert onRetry={reload}>Couldn't load this chat: {failure}</LoadFailedAlert>
      </div>
    );
  }
  return <MessageList key={sessionId ?? "new"} empty={empty} />;
}

function MessageList({ empty }: { empty: ReactNode }) {
  const messages = useTranscript(selectMessages);
  const regenerableId = useTranscript(selectRegenerableId);
  const regenerate = useTranscript((s) => s.regenerate);
  const turnError = useTranscript((s) => s.turnError);
  const providers = useProviders(selectProviderList);
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);

  const onRegenerate = useCallback(() => void regenerate(), [regenerate]);

  // Follow the growing content (streamed text changes height without a React commit here).
  useEffect(() => {
    const outer = scroller.current;
    const inner = content.current;
    if (!outer || !inner) return;
    const follow = () => {
      if (stuck.current) outer.scrollTop = outer.scrollHeight;
    };
    follow();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(follow);
    observer.observe(inner);
    return () => observer.disconnect();
  }, []);

  const onScroll = () => {
    const el = scroller.current;
    if (el) stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight < stickThresholdPx;
  };

  const visible = messages.filter((m) => m.role !== "tool" && m.role !== "system");
  if (visible.length === 0 && !turnError) {
    return <div className="transcript transcript-centered">{empty}</div>;
  }

  const nameOf = (id: unknown) =>
    typeof id === "string" ? (providers.find((p) => p.id === id)?.name ?? id) : null;

  return (
    <div className="transcript" ref={scroller} onScroll={onScroll} role="log" aria-label="Conversation">
      <div className="transcript-content" ref={content}>
        {messages.map((message) => (
          <MessageRow
            key={message.id}
            message={message}
            canRegenerate={message.id === regenerableId}
            onRegenerate={onRegenerate}
            providerName={nameOf(message.meta?.provider)}
          />
        ))}
        {turnError ? <InlineAlert>The reply failed: {turnError}</InlineAlert> : null}
      </div>
    </div>
  );
}
