/**
 * A background review's proposal (Settings → Chat → Memory review): lines it suggests adding to
 * the Memory note, shown in the transcript with **Add to Memory** and **Dismiss**. Once answered it
 * stays as a one-line record of what was decided.
 */
import { Brain, Check, X } from "lucide-react";
import { useState } from "react";
import { MEMORY_PROPOSAL_NOTICE } from "../../../../electron/host/rpc/shared-rules/session-notices.js";
import { describeError } from "../../api/rpc-error.js";
import { useTranscript } from "../../stores/chat/chat-context.js";
import type { ChatMessage } from "../../stores/chat/chat-model.js";
import { Button } from "../../ui/button.js";
import { CardError } from "./card-error.js";

interface Proposal {
  additions: string[];
  state: "pending" | "accepted" | "dismissed";
}

export const isMemoryProposal = (message: ChatMessage): boolean =>
  message.role === "notice" && message.meta?.notice === MEMORY_PROPOSAL_NOTICE;

function proposalOf(message: ChatMessage): Proposal {
  const raw = message.meta?.proposal as Partial<Proposal> | undefined;
  const additions = Array.isArray(raw?.additions) ? raw.additions.filter((a) => typeof a === "string") : [];
  const state = raw?.state === "accepted" || raw?.state === "dismissed" ? raw.state : "pending";
  return { additions, state };
}

export function MemoryProposal({ message }: { message: ChatMessage }) {
  const answer = useTranscript((s) => s.answerMemoryProposal);
  const [busy, setBusy] = useState<"accept" | "dismiss" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { additions, state } = proposalOf(message);

  const respond = async (accept: boolean) => {
    setBusy(accept ? "accept" : "dismiss");
    setError(null);
    try {
      await answer(message.id, accept);
    } catch (err) {
      setError(`Couldn't ${accept ? "add it to Memory" : "dismiss it"}: ${describeError(err)}`);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section
      className="memory-proposal"
      aria-label="Memory proposal"
      data-message-id={message.id}
      data-state={state}
    >
      <header className="memory-proposal-header">
        <Brain size={14} aria-hidden="true" />
        <span>
          {state === "pending"
            ? "Add to Memory?"
            : state === "accepted"
              ? "Added to Memory"
              : "Memory proposal dismissed"}
        </span>
      </header>
      <ul className="memory-proposal-lines">
        {additions.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ul>
      {state === "pending" ? (
        <div className="memory-proposal-actions">
          <Button
            size="sm"
            variant="primary"
            icon={<Check size={14} aria-hidden="true" />}
            busy={busy === "accept"}
            disabled={busy !== null}
            onClick={() => void respond(true)}
          >
            Add to Memory
          </Button>
          <Button
            size="sm"
            variant="ghost"
            icon={<X size={14} aria-hidden="true" />}
            busy={busy === "dismiss"}
            disabled={busy !== null}
            onClick={() => void respond(false)}
          >
            Dismiss
          </Button>
        </div>
      ) : null}
      <CardError error={error} />
    </section>
  );
}
