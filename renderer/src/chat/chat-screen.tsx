/**
 * The open conversation: its title and model, the usage readout, the transcript and the composer.
 * Esc stops a streaming reply (when nothing else, like the command list, takes the key first).
 */
import { Cpu, MessageSquare } from "lucide-react";
import { useDeferredValue, useEffect } from "react";
import { useSessions, useTranscript } from "../stores/chat/chat-context.js";
import { selectCurrentMainModel } from "../stores/settings/main-model-store.js";
import { selectProviderList } from "../stores/settings/providers-store.js";
import { selectSelectedTitle } from "../stores/chat/session-list-store.js";
import { useMainModel, useNavigation, useProviders } from "../stores/stores-context.js";
import { selectIsRunning } from "../stores/chat/transcript-store.js";
import { Button } from "../ui/button.js";
import { EmptyState } from "../ui/empty-state.js";
import { DismissibleAlert } from "../ui/inline-alert.js";
import { ChatModelPicker } from "./chat-model-picker.js";
import { Composer } from "./composer/composer.js";
import { McpRequests } from "./mcp/mcp-requests.js";
import { ExportMenu } from "./export-menu.js";
import { SystemPromptButton } from "./system-prompt-button.js";
import { ReplyAnnouncer } from "./transcript/reply-announcer.js";
import { Transcript } from "./transcript/transcript.js";
import { UsagePopover } from "./usage-popover.js";

export function ChatScreen() {
  const current = useMainModel(selectCurrentMainModel);
  const modelState = useMainModel((s) => s.current.kind);
  const providerName = useProviders(
    (s) => selectProviderList(s).find((p) => p.id === current?.provider)?.name ?? current?.provider ?? null,
  );
  const goToSettings = useNavigation((s) => s.goToSettings);
  const title = useSessions(selectSelectedTitle);
  const sessionId = useSessions((s) => s.selectedId);
  // A chat's header tools (menus, popovers) mount in a render of their own, not in the task of the
  // send that created the chat (the person's message shows first).
  const toolsFor = useDeferredValue(sessionId);
  const running = useTranscript(selectIsRunning);
  const stop = useTranscript((s) => s.stop);
  const actionError = useTranscript((s) => s.actionError);
  const clearActionError = useTranscript((s) => s.clearActionError);
  const hasModel = current !== null && current.model !== "";

  useEffect(() => {
    if (!running) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented && !document.querySelector('[role="dialog"]')) {
        void stop();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [running, stop]);

  const disabledReason =
    modelState === "loading" ? (
      "Loading your settings…"
    ) : hasModel ? null : (
      <>
        <span>Chat needs a main model.</span>
        <button type="button" className="link-button" onClick={() => goToSettings("models")}>
          Open Settings → Models
        </button>
      </>
    );

  const empty = hasModel ? (
    <EmptyState icon={<MessageSquare size={20} />} title="Start a conversation">
      Ask anything. Replies stream in as they are written; press Esc to stop one.
    </EmptyState>
  ) : (
    <EmptyState
      icon={<Cpu size={20} />}
      title="Choose a main model"
      action={
        <Button variant="primary" onClick={() => goToSettings("models")}>
          Pick a model
        </Button>
      }
    >
      Chat needs a model to talk to. Pick one from your providers.
    </EmptyState>
  );

  return (
    <div className="chat">
      <header className="chat-header">
        <h1 className="chat-title">{sessionId ? (title ?? "Chat") : "New chat"}</h1>
        <div className="chat-header-tools">
          {hasModel && toolsFor ? <SystemPromptButton /> : null}
          {hasModel && toolsFor ? (
            <ChatModelPicker fallback={current} />
          ) : hasModel ? (
            <span className="model-pill" title="The main model">
              <Cpu size={14} aria-hidden="true" />
              <span className="model-pill-text">
                {providerName} · {current.model}
              </span>
            </span>
          ) : null}
          {toolsFor ? <ExportMenu /> : null}
          {toolsFor ? <UsagePopover /> : null}
        </div>
      </header>
      {actionError ? (
        <div className="chat-alert">
          <DismissibleAlert onDismiss={clearActionError}>{actionError}</DismissibleAlert>
        </div>
      ) : null}
      <Transcript empty={empty} />
      <McpRequests />
      <ReplyAnnouncer />
      <Composer disabledReason={disabledReason} />
    </div>
  );
}
