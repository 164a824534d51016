/**
 * An MCP prompt's arguments form (docs/contract.md §13.4), opened by its `/<id>:<prompt>` command:
 * one field per argument, with the server's `completion/complete` suggestions as the person types.
 * "Insert" reads the prompt and puts its text in the message box, for the person to send.
 */
import { useRef, useState, type FormEvent } from "react";
import type { McpPromptMessage } from "../../../../electron/host/rpc/methods/mcp.js";
import { describeError } from "../../api/rpc-error.js";
import { useMcpCatalog } from "../../stores/stores-context.js";
import { Dialog } from "../../ui/dialog.js";
import { DialogFormFooter } from "../../ui/dialog-form.js";
import { Field } from "../../ui/field.js";
import type { McpPromptCommand } from "./prompt-commands.js";

/** A prompt's messages as the text of one message: text as is, embedded resources' text, others named. */
export function promptText(messages: readonly McpPromptMessage[]): string {
  return messages
    .map((message) => {
      const content = message.content;
      if (content.type === "text" && typeof content.text === "string") return content.text;
      const resource = content.resource as { text?: unknown; uri?: unknown } | undefined;
      if (content.type === "resource" && typeof resource?.text === "string") return resource.text;
      return `[${content.type}${typeof content.mimeType === "string" ? ` ${content.mimeType}` : ""}]`;
    })
    .filter(Boolean)
    .join("\n\n");
}

export function PromptDialog({
  command,
  onClose,
  onInsert,
}: {
  command: McpPromptCommand | null;
  onClose(): void;
  onInsert(text: string): void;
}) {
  return (
    <Dialog
      open={command !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={command ? `/${command.name}` : "MCP prompt"}
      description={command?.description || "A prompt from an MCP server."}
    >
      {command ? (
        <PromptForm key={command.name} command={command} onClose={onClose} onInsert={onInsert} />
      ) : null}
    </Dialog>
  );
}

function PromptForm({
  command,
  onClose,
  onInsert,
}: {
  command: McpPromptCommand;
  onClose(): void;
  onInsert(text: string): void;
}) {
  const { mcpServer: server, prompt: name } = command.source;
  const prompt = useMcpCatalog((s) => s.prompts[server]?.find((p) => p.name === name));
  const getPrompt = useMcpCatalog((s) => s.getPrompt);
  const complete = useMcpCatalog((s) => s.complete);
  const [values, setValues] = useState<Record<string, string>>({});
  const [suggestions, setSuggestions] = useState<Record<string, string[]>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const asked = useRef(0);

  const change = (argument: string, value: string) => {
    const next = { ...values, [argument]: value };
    setValues(next);
    const ticket = ++asked.current;
    const context = Object.fromEntries(
      Object.entries(next).filter(([key, v]) => key !== argument && v !== ""),
    );
    void complete(server, name, argument, value, context).then((list) => {
      if (ticket === asked.current)
        setSuggestions((current) => ({ ...current, [argument]: list.slice(0, 100) }));
    });
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      const args = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
      onInsert(promptText(await getPrompt(server, name, args)));
      onClose();
    } catch (err) {
      setError(describeError(err));
      setSaving(false);
    }
  }

  const args = prompt?.arguments ?? [];
  return (
    <form className="dialog-body" onSubmit={submit} noValidate>
      {args.length === 0 ? <p className="dialog-hint">This prompt takes no arguments.</p> : null}
      {args.map((arg) => {
        const listId = `mcp-prompt-${server}-${name}-${arg.name}`;
        const options = suggestions[arg.name] ?? [];
        return (
          <Field
            key={arg.name}
            label={arg.required ? `${arg.name} (required)` : arg.name}
            hint={arg.description}
          >
            {(control) => (
              <>
                <input
                  {...control}
                  className="input"
                  list={options.length ? listId : undefined}
                  value={values[arg.name] ?? ""}
                  autoComplete="off"
                  onChange={(e) => change(arg.name, e.target.value)}
                />
                {options.length ? (
                  <datalist id={listId} data-testid={`suggestions-${arg.name}`}>
                    {options.map((option) => (
                      <option key={option} value={option} />
                    ))}
                  </datalist>
                ) : null}
              </>
            )}
          </Field>
        );
      })}
      <DialogFormFooter
        error={error}
        saving={saving}
        onCancel={onClose}
        submitLabel="Insert"
        busyLabel="Reading…"
      />
    </form>
  );
}
