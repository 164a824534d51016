/** Settings → Memory: a note every new chat's system prompt includes (`memory.note`). */
import { Check } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { describeError } from "../../api/rpc-error.js";
import { useChatSettings } from "../../stores/chat/chat-context.js";
import { Button } from "../../ui/button.js";
import { Field } from "../../ui/field.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { LoadableView } from "../../ui/loadable-view.js";
import { SettingsPage } from "../settings-page.js";

export function MemoryPage() {
  const settings = useChatSettings((s) => s.settings);
  const load = useChatSettings((s) => s.load);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <SettingsPage
      headingId="memory-heading"
      title="Memory"
      description="Things the assistant should always keep in mind about you and your work."
    >
      <div className="card card-padded">
        <LoadableView
          value={settings}
          loadingText="Loading your memory note…"
          failureText="Couldn't load the memory note"
          onRetry={load}
        >
          {(data) => <MemoryForm saved={data.memoryNote} />}
        </LoadableView>
      </div>
    </SettingsPage>
  );
}

function MemoryForm({ saved }: { saved: string }) {
  const save = useChatSettings((s) => s.save);
  // Unsaved text lives in the store, so leaving this page and coming back finds it again.
  const draft = useChatSettings((s) => s.memoryDraft);
  const setDraft = useChatSettings((s) => s.setMemoryDraft);
  const note = draft ?? saved;
  const setNote = (text: string) => setDraft(text === saved ? null : text);
  const [status, setStatus] = useState<"idle" | "saving" | "saved">("idle");
  const [error, setError] = useState<string | null>(null);
  const dirty = note !== saved;

  // Closing or reloading the window with unsaved text asks first.
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setStatus("saving");
    setError(null);
    try {
      await save("memoryNote", note);
      setDraft(null);
      setStatus("saved");
    } catch (err) {
      setStatus("idle");
      setError(`Couldn't save the note: ${describeError(err)}`);
    }
  }

  return (
    <form className="memory-form" onSubmit={submit}>
      <Field
        label="Memory"
        hint="Every new chat's system prompt includes this note. Chats you already started keep the note they began with."
      >
        {(control) => (
          <textarea
            {...control}
            className="input textarea memory-textarea"
            rows={8}
            value={note}
            placeholder="For example: I write TypeScript; prefer short answers with code."
            onChange={(event) => {
              setNote(event.target.value);
              setStatus("idle");
            }}
          />
        )}
      </Field>
      {error ? <InlineAlert>{error}</InlineAlert> : null}
      <div className="form-actions">
        <p role="status" className="save-status">
          {status === "saved" && !dirty ? (
            <>
              <Check size={14} aria-hidden="true" />
              Saved. New chats include this note.
            </>
          ) : dirty ? (
            "Unsaved changes — kept while you look elsewhere; Save to use them in new chats."
          ) : null}
        </p>
        {dirty ? (
          <Button variant="ghost" onClick={() => setDraft(null)} disabled={status === "saving"}>
            Discard changes
          </Button>
        ) : null}
        <Button
          type="submit"
          variant="primary"
          disabled={status === "saving" || !dirty}
          busy={status === "saving"}
        >
          {status === "saving" ? "Saving…" : "Save"}
        </Button>
      </div>
    </form>
  );
}
