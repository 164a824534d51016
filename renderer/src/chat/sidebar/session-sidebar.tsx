/**
 * The chat part of the app sidebar: "New chat", a search box over titles and message text, and
 * the sessions newest first (or the search hits with their snippets), plus the undo toast.
 */
import { Plus, Search, Upload } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { describeError } from "../../api/rpc-error.js";
import { useShallow } from "zustand/react/shallow";
import { useSessions, useTranscript } from "../../stores/chat/chat-context.js";
import { selectVisibleSessions } from "../../stores/chat/session-list-store.js";
import { useProviders } from "../../stores/stores-context.js";
import { Button } from "../../ui/button.js";
import { LoadingLine } from "../../ui/spinner.js";
import { useRowsInReach } from "./rows-in-reach.js";
import { SessionRow } from "./session-row.js";
import { UndoToast } from "./undo-toast.js";

export function SessionSidebar() {
  const hasProviders = useProviders((s) => s.providers.kind === "ready" && s.providers.data.length > 0);
  const ensureLoaded = useSessions((s) => s.ensureLoaded);
  useEffect(() => {
    if (hasProviders) void ensureLoaded();
  }, [hasProviders, ensureLoaded]);
  if (!hasProviders) return null;
  return (
    <section className="session-sidebar" aria-label="Chats">
      <NewChatButton />
      <ImportChatButton />
      <SearchBox />
      <SessionList />
      <UndoToast />
    </section>
  );
}

function NewChatButton() {
  const select = useSessions((s) => s.select);
  const setQuery = useSessions((s) => s.setQuery);
  return (
    <Button
      className="new-chat"
      icon={<Plus size={16} aria-hidden="true" />}
      onClick={() => {
        setQuery("");
        select(null);
      }}
    >
      New chat
    </Button>
  );
}

/** Opens a chat exported as JSON (here or on another machine) as a new chat. */
function ImportChatButton() {
  const importChat = useSessions((s) => s.importChat);
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button type="button" className="link-button import-chat" onClick={() => input.current?.click()}>
        <Upload size={13} aria-hidden="true" />
        Import chat
      </button>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (!file) return;
          setError(null);
          file
            .text()
            .then(importChat)
            .catch((err: unknown) => setError(`Couldn't import ${file.name}: ${describeError(err)}`));
        }}
      />
      {error ? (
        <p role="alert" className="session-list-note session-list-error">
          {error}
        </p>
      ) : null}
    </>
  );
}

function SearchBox() {
  const query = useSessions((s) => s.query);
  const setQuery = useSessions((s) => s.setQuery);
  return (
    <div className="session-search">
      <Search size={14} aria-hidden="true" className="session-search-icon" />
      <input
        type="search"
        className="session-search-input"
        aria-label="Search chats"
        placeholder="Search chats"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape" && query) {
            event.preventDefault();
            setQuery("");
          }
        }}
      />
    </div>
  );
}

function SessionList() {
  const sessions = useSessions((s) => s.sessions);
  const visible = useSessions(useShallow(selectVisibleSessions));
  const results = useSessions((s) => s.results);
  const hidden = useSessions((s) => s.pendingDelete?.sessionId ?? null);
  const selectedId = useSessions((s) => s.selectedId);
  const select = useSessions((s) => s.select);
  const rename = useSessions((s) => s.rename);
  const requestDelete = useSessions((s) => s.requestDelete);
  const load = useSessions((s) => s.load);
  const focusMessage = useTranscript((s) => s.focusMessage);
  const onOpen = useCallback((id: string) => select(id), [select]);
  // A hit opens its chat at the message that matched.
  const onOpenHit = useCallback(
    (id: string) => {
      select(id);
      const messageId =
        results?.kind === "ready" ? results.data.find((h) => h.sessionId === id)?.snippet?.messageId : null;
      if (messageId) focusMessage(messageId);
    },
    [select, focusMessage, results],
  );
  const onDelete = useCallback((id: string) => requestDelete(id), [requestDelete]);
  const setPinned = useSessions((s) => s.setPinned);
  const pinError = useSessions((s) => s.pinError);
  const {
    count: rowCount,
    onFocus: onRowFocus,
    markEnd,
  } = useRowsInReach(
    visible.length,
    visible.findIndex((s) => s.sessionId === selectedId),
  );

  if (results) {
    if (results.kind === "loading") return <LoadingLine>Searching…</LoadingLine>;
    if (results.kind === "failed") {
      return (
        <p role="alert" className="session-list-note session-list-error">
          Search failed: {results.message}
        </p>
      );
    }
    const hits = results.data.filter((s) => s.sessionId !== hidden);
    return (
      <nav aria-label="Search results" className="session-list">
        {hits.length === 0 ? (
          <p className="session-list-note">No chats match.</p>
        ) : (
          <ul>
            {hits.map((hit) => (
              <SessionRow
                key={hit.sessionId}
                session={hit}
                current={hit.sessionId === selectedId}
                onOpen={onOpenHit}
                onRename={rename}
                onDelete={onDelete}
                snippet={hit.snippet ?? null}
              />
            ))}
          </ul>
        )}
      </nav>
    );
  }

  if (sessions.kind === "loading") return <LoadingLine>Loading chats…</LoadingLine>;
  if (sessions.kind === "failed") {
    return (
      <div role="alert" className="session-list-note session-list-error">
        Couldn't load your chats: {sessions.message}{" "}
        <button type="button" className="link-button" onClick={() => void load()}>
          Retry
        </button>
      </div>
    );
  }
  return (
    <nav aria-label="Chats" className="session-list">
      {pinError ? (
        <p role="alert" className="session-list-note session-list-error">
          {pinError}
        </p>
      ) : null}
      {visible.length === 0 ? (
        <p className="session-list-note">No chats yet. Your conversations will appear here.</p>
      ) : (
        <ul onFocus={onRowFocus}>
          {visible.slice(0, rowCount).map((session, index) => (
            <SessionRow
              key={session.sessionId}
              session={session}
              current={session.sessionId === selectedId}
              onOpen={onOpen}
              onRename={rename}
              onDelete={onDelete}
              onPin={setPinned}
              positionInList={index + 1}
              listLength={visible.length}
            />
          ))}
        </ul>
      )}
      {rowCount < visible.length ? <div ref={markEnd} className="session-list-end" /> : null}
    </nav>
  );
}
