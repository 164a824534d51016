/**
 * The open session's messages, kept scrolled to the bottom while a reply streams unless the user
 * scrolled up to read (then "Jump to latest" brings the end back); a new message, a new turn and a
 * failure always come into view, and an opened search hit is scrolled to and marked. Rows are memoized; off-screen rows skip layout and paint
 * (`content-visibility: auto` in transcript.css), which keeps long transcripts fast.
 */
import { ArrowDown } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranscript } from "../../stores/chat/chat-context.js";
import { useProviders, useStores } from "../../stores/stores-context.js";
import {
  isArchived,
  selectMessages,
  selectRegenerableId,
  versionsOf,
} from "../../stores/chat/transcript-store.js";
import { Button } from "../../ui/button.js";
import { selectProviderList } from "../../stores/settings/providers-store.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { LoadFailedAlert } from "../../ui/loadable-view.js";
import { LoadingLine } from "../../ui/spinner.js";
import { ActionItemsCard } from "../cards/action-items-card.js";
import { useFollowOutput } from "./follow-output.js";
import { MessageRow } from "./message-row.js";
import { scrollToMessage } from "./scroll-to-message.js";
import { UserMessage } from "./user-message.js";

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
  const sessionId = useTranscript((s) => s.sessionId);
  const regenerableId = useTranscript(selectRegenerableId);
  const regenerate = useTranscript((s) => s.regenerate);
  const turnError = useTranscript((s) => s.turnError);
  const runningTurnId = useTranscript((s) => s.runningTurnId);
  const liveTurnId = useTranscript((s) => s.liveTurnId);
  const focusMessageId = useTranscript((s) => s.focusMessageId);
  const clearFocus = useTranscript((s) => s.clearFocusMessage);
  const providers = useProviders(selectProviderList);
  const { scrollerRef, contentRef, onScroll, atBottom, jumpToLatest, release } = useFollowOutput();
  const scroller = useRef<HTMLDivElement | null>(null);
  const [focusedId, setFocusedId] = useState<string | null>(null);

  const onRegenerate = useCallback(() => void regenerate(), [regenerate]);
  const editMessage = useTranscript((s) => s.editMessage);
  const switchVersion = useTranscript((s) => s.switchVersion);
  const editingId = useTranscript((s) => s.editingMessageId);
  const setEditingId = useTranscript((s) => s.setEditingMessageId);
  const onSwitchVersion = useCallback(
    (group: string, version: number) => void switchVersion(group, version),
    [switchVersion],
  );
  // Earlier versions of edited messages stay in the store, out of sight.
  const shown = useMemo(() => messages.filter((m) => !isArchived(m)), [messages]);
  const versions = useMemo(() => versionsOf(messages), [messages]);
  const setScroller = useCallback(
    (element: HTMLDivElement | null) => {
      scroller.current = element;
      scrollerRef(element);
    },
    [scrollerRef],
  );

  // A new message of the person, a new turn and a failure always come into view (not while the
  // view is being taken to a search hit).
  const lastUserId = messages.findLast((m) => m.role === "user")?.id ?? null;
  const lastErrorId = messages.findLast((m) => m.status === "error")?.id ?? null;
  const transcriptStore = useStores().chat.transcript;
  const focusing = useCallback(() => transcriptStore.getState().focusMessageId !== null, [transcriptStore]);
  useEffect(() => {
    if (lastUserId && !focusing()) jumpToLatest();
  }, [lastUserId, jumpToLatest, focusing]);
  useEffect(() => {
    if (runningTurnId && !focusing()) jumpToLatest();
  }, [runningTurnId, jumpToLatest, focusing]);
  useEffect(() => {
    if ((lastErrorId || turnError) && !focusing()) jumpToLatest();
  }, [lastErrorId, turnError, jumpToLatest, focusing]);

  // Opening a search hit shows the message that matched, and keeps it in view while rows settle.
  const stopFollowingHit = useRef<(() => void) | null>(null);
  useEffect(() => () => stopFollowingHit.current?.(), []);
  useEffect(() => {
    if (!focusMessageId || !scroller.current) return;
    const target = scroller.current.querySelector<HTMLElement>(
      `[data-message-id="${CSS.escape(focusMessageId)}"]`,
    );
    if (!target) return;
    release();
    stopFollowingHit.current?.();
    stopFollowingHit.current = scrollToMessage(scroller.current, target);
    setFocusedId(focusMessageId);
    clearFocus();
  }, [focusMessageId, messages, release, clearFocus]);

  const visible = shown.filter((m) => m.role !== "tool" && m.role !== "system");
  if (visible.length === 0 && !turnError) {
    return <div className="transcript transcript-centered">{empty}</div>;
  }

  const nameOf = (id: unknown) =>
    typeof id === "string" ? (providers.find((p) => p.id === id)?.name ?? id) : null;

  return (
    <div className="transcript-frame">
      {/* Not live (a log's default): it would read out every streamed token. ReplyAnnouncer speaks once. */}
      <div
        className="transcript"
        ref={setScroller}
        onScroll={onScroll}
        role="log"
        aria-label="Conversation"
        aria-live="off"
      >
        <div className="transcript-content" ref={contentRef}>
          {shown.map((message) =>
            message.role === "user" ? (
              <UserMessage
                key={message.id}
                message={message}
                focused={message.id === focusedId}
                canEdit={
                  !runningTurnId &&
                  message.meta?.pending !== true &&
                  typeof message.meta?.command !== "string"
                }
                editing={message.id === editingId}
                onEditingChange={setEditingId}
                onResend={editMessage}
                versions={versions.get(message.id) ?? null}
                onSwitchVersion={onSwitchVersion}
              />
            ) : (
              <MessageRow
                key={message.id}
                message={message}
                canRegenerate={message.id === regenerableId}
                onRegenerate={onRegenerate}
                providerName={nameOf(message.meta?.provider)}
                focused={message.id === focusedId}
                announceError={message.turnId !== null && message.turnId === liveTurnId}
              />
            ),
          )}
          {turnError ? (
            <InlineAlert
              action={
                <Button size="sm" onClick={onRegenerate}>
                  Resend
                </Button>
              }
            >
              The reply failed: {turnError}
            </InlineAlert>
          ) : null}
          <ActionItemsCard sessionId={sessionId} />
        </div>
      </div>
      {atBottom ? null : (
        <button type="button" className="jump-to-latest" onClick={() => jumpToLatest({ smooth: true })}>
          <ArrowDown size={14} aria-hidden="true" />
          Jump to latest
        </button>
      )}
    </div>
  );
}
