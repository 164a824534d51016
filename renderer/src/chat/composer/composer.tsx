/**
 * The message box: Enter sends, Shift+Enter adds a line, `/` opens the command list. While a
 * reply streams it offers Stop and says what sending will do (the busy-input setting); after a
 * send it says what happened to the message (queued, steered, redirected).
 */
import { ArrowUp, Square } from "lucide-react";
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from "react";
import { useChatSettings, useComposer, useTranscript } from "../../stores/chat/chat-context.js";
import type { BusyInputMode } from "../../stores/chat/chat-model.js";
import { matchCommands, type SlashCommand } from "../../stores/chat/composer-store.js";
import { selectIsRunning, selectLastEditableId } from "../../stores/chat/transcript-store.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { selectMcpServers } from "../../stores/mcp/mcp-servers-store.js";
import { useMcpServers } from "../../stores/stores-context.js";
import { AttachImageButton, PendingImages } from "./image-attach-controls.js";
import { NextPromptChip } from "../cards/next-prompt-chip.js";
import { useImageAttachments } from "./image-attachments.js";
import { SlashMenu } from "./slash-menu.js";
import { AttachResourceButton } from "../mcp/attach-resource-dialog.js";
import { PendingResources } from "../mcp/pending-resources.js";
import {
  isMcpPromptCommand,
  promptOfDraft,
  useMcpPromptCommands,
  type McpPromptCommand,
} from "../mcp/prompt-commands.js";
import { PromptDialog } from "../mcp/prompt-dialog.js";
import { textWithResources, useResourceAttachments } from "../mcp/resource-attachments.js";

const busyHint: Record<BusyInputMode, string> = {
  queue: "A reply is being written. Sending now queues your message to run next.",
  steer: "A reply is being written. Sending now steers it with your message.",
  interrupt: "A reply is being written. Sending now stops it and answers your message instead.",
};

const dispositionNote = {
  queued: "Queued: your message runs after the current reply.",
  steered: "Steered: your message went into the reply being written.",
  redirected: "Redirected: the reply was stopped and your message is answered now.",
} as const;

const maxHeightPx = 240;

export function Composer({ disabledReason }: { disabledReason: ReactNode | null }) {
  const [draft, setDraft] = useState("");
  const [activeIndex, setActiveIndex] = useState(0);
  const [menuDismissed, setMenuDismissed] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const menuId = useId();
  const running = useTranscript(selectIsRunning);
  const stop = useTranscript((s) => s.stop);
  const sessionId = useTranscript((s) => s.sessionId);
  const send = useComposer((s) => s.send);
  const sending = useComposer((s) => s.sending);
  const sendError = useComposer((s) => s.sendError);
  const lastDisposition = useComposer((s) => s.lastDisposition);
  const clearDisposition = useComposer((s) => s.clearDisposition);
  const runningTurnId = useTranscript((s) => s.runningTurnId);
  const setEditing = useTranscript((s) => s.setEditingMessageId);
  const lastEditableId = useTranscript(selectLastEditableId);
  const commands = useComposer((s) => (s.commands.kind === "ready" ? s.commands.data : null));
  const loadCommands = useComposer((s) => s.loadCommands);
  const busyMode = useChatSettings((s) =>
    s.settings.kind === "ready" ? s.settings.data.busyInputMode : "queue",
  );
  const settingsLoaded = useChatSettings((s) => s.settings.kind !== "loading");
  const loadSettings = useChatSettings((s) => s.load);
  const disabled = disabledReason !== null;
  const attachments = useImageAttachments();
  const resources = useResourceAttachments();
  const promptCommands = useMcpPromptCommands();
  const anyMcpReady = useMcpServers((s) => selectMcpServers(s).some((server) => server.status === "ready"));
  const [promptCommand, setPromptCommand] = useState<McpPromptCommand | null>(null);

  useEffect(() => {
    void loadCommands();
  }, [loadCommands]);

  // The busy-input hint is needed only once a reply runs; load the setting then, not at start-up.
  useEffect(() => {
    if (running && !settingsLoaded) void loadSettings();
  }, [running, settingsLoaded, loadSettings]);

  useEffect(() => {
    if (!disabled) input.current?.focus();
  }, [sessionId, disabled]);

  // What happened to the last message is news only until it entered the conversation: a steer
  // while the reply it went into runs, a queued message or a redirect until its own turn starts.
  const dispositionCurrent =
    lastDisposition !== null &&
    (lastDisposition.disposition === "steered"
      ? runningTurnId === lastDisposition.turnId
      : runningTurnId !== null && runningTurnId !== lastDisposition.turnId);
  useEffect(() => {
    if (lastDisposition && !dispositionCurrent) clearDisposition();
  }, [lastDisposition, dispositionCurrent, clearDisposition]);
  useEffect(() => clearDisposition, [sessionId, clearDisposition]);

  // Grow with the text up to a limit, then scroll.
  useLayoutEffect(() => {
    const el = input.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, maxHeightPx)}px`;
  }, [draft]);

  const matches = commands && !menuDismissed ? matchCommands([...commands, ...promptCommands], draft) : [];
  const menuOpen = matches.length > 0;
  const active = Math.min(activeIndex, Math.max(matches.length - 1, 0));

  const pick = (command: SlashCommand) => {
    // An MCP prompt asks for its arguments, then fills the box with its text.
    if (isMcpPromptCommand(command)) {
      setDraft("");
      setActiveIndex(0);
      setPromptCommand(command);
      return;
    }
    setDraft(`/${command.name} `);
    setActiveIndex(0);
    input.current?.focus();
  };

  const submit = async () => {
    const hasAttachments = attachments.images.length > 0 || resources.resources.length > 0;
    if (disabled || (!draft.trim() && !hasAttachments) || sending) return;
    const named = promptOfDraft(promptCommands, draft);
    if (named) {
      setPromptCommand(named);
      return;
    }
    const text = draft;
    const images = [
      ...attachments.images.map(({ mimeType, data, name }) => ({
        mimeType,
        data,
        ...(name ? { name } : {}),
      })),
      ...resources.resources.flatMap((resource) => resource.images),
    ];
    if (await send(textWithResources(text, resources.resources), images)) {
      setDraft((current) => (current === text ? "" : current));
      attachments.clear();
      resources.clear();
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (menuOpen) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setActiveIndex((active + step + matches.length) % matches.length);
        return;
      }
      if (event.key === "Tab" || (event.key === "Enter" && !event.shiftKey)) {
        const command = matches[active];
        if (command && draft !== `/${command.name}`) {
          event.preventDefault();
          pick(command);
          return;
        }
      }
      if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        setMenuDismissed(true);
        return;
      }
    }
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
      return;
    }
    // ↑ in an empty box edits the last message sent, as in the big chat apps.
    if (event.key === "ArrowUp" && draft === "" && !running && lastEditableId) {
      event.preventDefault();
      setEditing(lastEditableId);
    }
  };

  const status =
    sendError || !dispositionCurrent || !lastDisposition
      ? null
      : dispositionNote[lastDisposition.disposition];

  return (
    <div className="composer">
      <div className="composer-inner">
        {sendError ? <InlineAlert>Couldn't send: {sendError}</InlineAlert> : null}
        {disabled ? <div className="composer-disabled-reason">{disabledReason}</div> : null}
        {attachments.error ? <InlineAlert>{attachments.error}</InlineAlert> : null}
        <PendingImages images={attachments.images} onRemove={attachments.remove} />
        <PendingResources resources={resources.resources} onRemove={resources.remove} />
        {disabled || running ? null : (
          <NextPromptChip
            sessionId={sessionId}
            onPick={(text) => {
              setDraft(text);
              input.current?.focus();
            }}
          />
        )}
        <div
          className={`composer-box${disabled ? " composer-box-disabled" : ""}`}
          onDragOver={(event) => event.preventDefault()}
          onDrop={(event) => {
            const files = attachments.filesOf(event.dataTransfer);
            if (files.length === 0 || disabled) return;
            event.preventDefault();
            void attachments.addFiles(files);
          }}
        >
          {menuOpen ? <SlashMenu id={menuId} commands={matches} activeIndex={active} onPick={pick} /> : null}
          <textarea
            ref={input}
            className="composer-input"
            aria-label="Message"
            placeholder={
              disabled
                ? "Chat is not available yet"
                : running
                  ? busyHint[busyMode]
                  : "Message Hermes…  (/ for commands)"
            }
            value={draft}
            disabled={disabled}
            rows={1}
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={menuOpen}
            aria-controls={menuOpen ? menuId : undefined}
            aria-activedescendant={menuOpen ? `${menuId}-${active}` : undefined}
            onChange={(event) => {
              setDraft(event.target.value);
              setMenuDismissed(false);
              setActiveIndex(0);
            }}
            onKeyDown={onKeyDown}
            onPaste={(event) => {
              const files = attachments.filesOf(event.clipboardData);
              if (files.length === 0) return;
              event.preventDefault();
              void attachments.addFiles(files);
            }}
          />
          <div className="composer-buttons">
            <AttachImageButton disabled={disabled} onFiles={(files) => void attachments.addFiles(files)} />
            {anyMcpReady ? <AttachResourceButton disabled={disabled} onAttach={resources.add} /> : null}
            {running ? (
              <button type="button" className="composer-stop" onClick={() => void stop()} aria-label="Stop">
                <Square size={12} aria-hidden="true" fill="currentColor" />
                <span>Stop</span>
              </button>
            ) : null}
            <button
              type="button"
              className="composer-send"
              aria-label="Send"
              disabled={
                disabled ||
                sending ||
                (!draft.trim() && attachments.images.length === 0 && resources.resources.length === 0)
              }
              onClick={() => void submit()}
            >
              <ArrowUp size={16} aria-hidden="true" />
            </button>
          </div>
        </div>
        <PromptDialog
          command={promptCommand}
          onClose={() => setPromptCommand(null)}
          onInsert={(text) => {
            setDraft(text);
            input.current?.focus();
          }}
        />
        <p role="status" className="composer-status">
          {status ?? (running ? busyHint[busyMode] : "Enter to send · Shift+Enter for a new line")}
        </p>
      </div>
    </div>
  );
}
