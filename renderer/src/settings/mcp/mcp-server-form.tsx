/**
 * Add or edit one MCP server: a local command (stdio) or a URL (Streamable HTTP or SSE), its
 * secrets and its approval mode. The block is saved first (`mcp.save`), then each typed secret
 * (`mcp.setSecret`); a refusal lands under the field the host named, and nothing typed is lost.
 */
import { useState, type ChangeEvent, type FormEvent } from "react";
import type { McpServerView } from "../../../../electron/host/rpc/methods/mcp.js";
import { describeError } from "../../api/rpc-error.js";
import { useStores } from "../../stores/stores-context.js";
import { DialogFormFooter } from "../../ui/dialog-form.js";
import { Field } from "../../ui/field.js";
import {
  blockFromFields,
  emptyMcpFields,
  fieldErrorOf,
  fieldsForServer,
  type McpFieldErrors,
  type McpFormFields,
} from "./mcp-form-model.js";
import { SecretFields, type SecretRow } from "./mcp-secret-fields.js";

const approvalWords = {
  ask: "Ask before every tool call",
  read_only: "Ask only for tools that change things",
  never: "Never ask",
} as const;

const savedRows = (server: McpServerView | null, kind: "env" | "headers"): SecretRow[] =>
  (server?.secrets[kind] ?? []).map((secret) => ({
    key: `saved-${secret.name}`,
    name: secret.name,
    saved: true,
    keyHint: secret.keyHint,
    removed: false,
  }));

export function McpServerForm({
  server,
  onDone,
  onSavingChange,
}: {
  /** null: adding a new server. */
  server: McpServerView | null;
  onDone(): void;
  onSavingChange(saving: boolean): void;
}) {
  const store = useStores().mcpServers;
  const [fields, setFields] = useState<McpFormFields>(() =>
    server ? fieldsForServer(server) : emptyMcpFields,
  );
  const [envRows, setEnvRows] = useState(() => savedRows(server, "env"));
  const [headerRows, setHeaderRows] = useState(() => savedRows(server, "headers"));
  // One map for the form's life: the secret value inputs by row key, read only at save time.
  const [secretInputs] = useState(() => new Map<string, HTMLInputElement>());
  const [errors, setErrors] = useState<McpFieldErrors>({});
  const [saving, setSaving] = useState(false);

  const update = <K extends keyof McpFormFields>(key: K, value: McpFormFields[K]) => {
    setFields((current) => ({ ...current, [key]: value }));
    if (Object.keys(errors).length) setErrors({});
  };
  const bindText = (key: "id" | "command" | "args" | "env" | "url" | "headers") => ({
    value: fields[key],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => update(key, e.target.value),
    autoComplete: "off",
    spellCheck: false,
  });

  const setBusy = (busy: boolean) => {
    setSaving(busy);
    onSavingChange(busy);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const id = fields.id.trim();
    const built = blockFromFields(fields, server?.config ?? null);
    if ("errors" in built) {
      setErrors(built.errors);
      return;
    }
    const kind = fields.kind === "stdio" ? "env" : "header";
    const rows = (kind === "env" ? envRows : headerRows).filter((row) => row.name.trim() !== "");
    const listKey = kind === "env" ? "secret_env" : "secret_headers";
    const names = [...new Set([...(built.block[listKey] ?? []), ...rows.map((row) => row.name.trim())])];
    const block = { ...built.block };
    if (names.length) block[listKey] = names;
    setErrors({});
    setBusy(true);
    try {
      await store.getState().save(id, block);
    } catch (err) {
      setErrors(fieldErrorOf(err, id) ?? { form: describeError(err) });
      setBusy(false);
      return;
    }
    try {
      for (const row of rows) {
        const input = secretInputs.get(row.key);
        const value = row.removed ? "" : (input?.value ?? "");
        if (value === "" && !row.removed) continue;
        await store.getState().setSecret(id, kind, row.name.trim(), value);
        if (input) input.value = "";
      }
    } catch (err) {
      // A secret refused (its name, or no keychain): under the secrets, whatever key the host named.
      setErrors({ secrets: describeError(err) });
      setBusy(false);
      return;
    }
    setBusy(false);
    onDone();
  }

  return (
    <form className="dialog-body mcp-form" onSubmit={submit} noValidate aria-busy={saving || undefined}>
      <Field
        label="Server ID"
        error={errors.id ?? null}
        hint="Lowercase letters, digits, _ and -. The model sees its tools as mcp__<id>__<tool>."
      >
        {(control) => (
          <input
            {...control}
            {...bindText("id")}
            className="input input-mono"
            type="text"
            readOnly={server !== null}
            placeholder="e.g. files"
          />
        )}
      </Field>
      <fieldset className="mcp-kind">
        <legend className="field-label">Connect with</legend>
        <div className="mcp-kind-options">
          {(
            [
              ["stdio", "A command on this computer (stdio)"],
              ["url", "A URL (HTTP)"],
            ] as const
          ).map(([kind, label]) => (
            <label key={kind} className="mcp-kind-option">
              <input
                type="radio"
                name="mcp-kind"
                value={kind}
                checked={fields.kind === kind}
                onChange={() => update("kind", kind)}
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      {fields.kind === "stdio" ? (
        <>
          <Field
            label="Command"
            error={errors.command ?? null}
            hint="A program on your PATH, or its full path."
          >
            {(control) => (
              <input
                {...control}
                {...bindText("command")}
                className="input input-mono"
                type="text"
                placeholder="e.g. npx"
              />
            )}
          </Field>
          <Field label="Arguments" optional error={errors.args ?? null} hint="One argument a line.">
            {(control) => (
              <textarea
                {...control}
                {...bindText("args")}
                className="input input-mono mcp-textarea"
                rows={3}
                placeholder={"-y\n@modelcontextprotocol/server-filesystem\n${userHome}/notes"}
              />
            )}
          </Field>
          <Field
            label="Environment"
            optional
            error={errors.env ?? null}
            hint="NAME=value, one a line. ${VAR} and ${userHome} expand. Put keys under secrets below."
          >
            {(control) => (
              <textarea
                {...control}
                {...bindText("env")}
                className="input input-mono mcp-textarea"
                rows={2}
                placeholder="LOG_LEVEL=info"
              />
            )}
          </Field>
          <SecretFields
            kind="env"
            rows={envRows}
            onChange={setEnvRows}
            inputs={secretInputs}
            error={errors.secrets ?? null}
          />
        </>
      ) : (
        <>
          <Field label="URL" error={errors.url ?? null}>
            {(control) => (
              <input
                {...control}
                {...bindText("url")}
                className="input input-mono"
                type="url"
                inputMode="url"
                placeholder="https://mcp.example.com/mcp"
              />
            )}
          </Field>
          <Field label="Transport" error={errors.transport ?? null}>
            {(control) => (
              <select
                {...control}
                className="input"
                value={fields.transport}
                onChange={(e) => update("transport", e.target.value === "sse" ? "sse" : "streamable_http")}
              >
                <option value="streamable_http">Streamable HTTP</option>
                <option value="sse">SSE (older servers)</option>
              </select>
            )}
          </Field>
          <Field label="Headers" optional error={errors.headers ?? null} hint="Name: value, one a line.">
            {(control) => (
              <textarea
                {...control}
                {...bindText("headers")}
                className="input input-mono mcp-textarea"
                rows={2}
                placeholder="X-Team: blue"
              />
            )}
          </Field>
          <SecretFields
            kind="header"
            rows={headerRows}
            onChange={setHeaderRows}
            inputs={secretInputs}
            error={errors.secrets ?? null}
          />
          <label className="mcp-checkbox">
            <input
              type="checkbox"
              checked={fields.oauth}
              onChange={(e) => update("oauth", e.target.checked)}
            />
            Sign in with OAuth (opens your browser)
          </label>
          {errors.auth ? <p className="field-error">{errors.auth}</p> : null}
        </>
      )}
      <Field
        label="Approval"
        error={errors.approval ?? null}
        hint="When a tool call waits for your OK in the chat."
      >
        {(control) => (
          <select
            {...control}
            className="input"
            value={fields.approval}
            onChange={(e) => update("approval", e.target.value as McpFormFields["approval"])}
          >
            {(Object.keys(approvalWords) as Array<keyof typeof approvalWords>).map((mode) => (
              <option key={mode} value={mode}>
                {approvalWords[mode]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <DialogFormFooter
        error={errors.form ?? null}
        saving={saving}
        onCancel={onDone}
        submitLabel={server ? "Save" : "Add server"}
        busyLabel="Saving…"
      />
    </form>
  );
}
