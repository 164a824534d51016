/**
 * "System prompt": the chat's own instructions, set from its header. They go before the
 * settings' prompt and the Memory note, which still applies; a new chat starts with none.
 */
import { ScrollText } from "lucide-react";
import { useState } from "react";
import { useTranscript } from "../stores/chat/chat-context.js";
import { selectIsRunning } from "../stores/chat/transcript-store.js";
import { Dialog } from "../ui/dialog.js";
import { DialogForm } from "../ui/dialog-form.js";
import { Field } from "../ui/field.js";

export function SystemPromptButton() {
  const prompt = useTranscript((s) => s.own?.systemPrompt ?? "");
  const running = useTranscript(selectIsRunning);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="header-button"
        aria-pressed={prompt ? true : undefined}
        disabled={running}
        title={
          prompt ? `This chat's system prompt: ${prompt.slice(0, 120)}` : "Give this chat a system prompt"
        }
        onClick={() => setOpen(true)}
      >
        <ScrollText size={14} aria-hidden="true" />
        <span>System prompt</span>
      </button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="System prompt"
        description="Instructions for this chat only, from the next reply on. Your Memory note still applies."
      >
        {open ? <PromptForm initial={prompt} onDone={() => setOpen(false)} /> : null}
      </Dialog>
    </>
  );
}

function PromptForm({ initial, onDone }: { initial: string; onDone(): void }) {
  const save = useTranscript((s) => s.setSystemPrompt);
  const [text, setText] = useState(initial);
  return (
    <DialogForm save={() => save(text)} onDone={onDone} submitLabel="Save" busyLabel="Saving…">
      <Field label="System prompt" hint="Leave it empty to remove it.">
        {(control) => (
          <textarea
            {...control}
            className="input textarea"
            rows={8}
            maxLength={20_000}
            value={text}
            placeholder="For example: Answer in German, briefly."
            onChange={(event) => setText(event.target.value)}
          />
        )}
      </Field>
    </DialogForm>
  );
}
