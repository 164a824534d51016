/**
 * The conversation area before chat is wired: shows which model chat will use and says plainly
 * that sending is not available in this build yet.
 */
import { Cpu, MessageSquare } from "lucide-react";
import { useMainModel, useNavigation, useProviders } from "../stores/stores-context.js";
import { selectCurrentMainModel } from "../stores/main-model-store.js";
import { selectProviderList } from "../stores/providers-store.js";
import { Button } from "../ui/button.js";
import { EmptyState } from "../ui/empty-state.js";

export function ChatHome() {
  const current = useMainModel(selectCurrentMainModel);
  const providerName = useProviders(
    (s) => selectProviderList(s).find((p) => p.id === current?.provider)?.name ?? current?.provider ?? null,
  );
  const goToSettings = useNavigation((s) => s.goToSettings);
  const hasModel = current !== null && current.model !== "";

  return (
    <div className="chat">
      <header className="chat-header">
        <h1 className="chat-title">New conversation</h1>
        {hasModel ? (
          <span className="model-pill" title="The main model">
            <Cpu size={14} aria-hidden="true" />
            {providerName} · {current.model}
          </span>
        ) : null}
      </header>
      <div className="chat-body">
        {hasModel ? (
          <EmptyState icon={<MessageSquare size={20} />} title="Start a conversation">
            Your provider and main model are set. Sending messages isn't wired up in this build yet — it
            arrives with the next update.
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
        )}
      </div>
      <div className="composer" aria-disabled="true">
        <textarea
          className="composer-input"
          aria-label="Message"
          placeholder="Sending arrives in the next update"
          disabled
          rows={1}
        />
      </div>
    </div>
  );
}
