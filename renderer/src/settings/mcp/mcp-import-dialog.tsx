/**
 * Import: paste Claude Desktop's `{"mcpServers": {…}}` JSON; the host adds each server (keys and
 * tokens go to the keychain) and the dialog lists what it added and what it skipped, with why.
 */
import { useState, type FormEvent } from "react";
import { describeError } from "../../api/rpc-error.js";
import type { McpImportResult } from "../../stores/mcp/mcp-servers-store.js";
import { useMcpServers } from "../../stores/stores-context.js";
import { Button } from "../../ui/button.js";
import { Dialog } from "../../ui/dialog.js";
import { DialogFormFooter } from "../../ui/dialog-form.js";
import { Field } from "../../ui/field.js";

export function McpImportDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const [saving, setSaving] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !saving) onClose();
      }}
      title="Import MCP servers"
      description="Paste the JSON from Claude Desktop's claude_desktop_config.json. Values that look like keys or tokens go to your system keychain."
    >
      {open ? <ImportBody onClose={onClose} onSavingChange={setSaving} /> : null}
    </Dialog>
  );
}

function ImportBody({ onClose, onSavingChange }: { onClose(): void; onSavingChange(saving: boolean): void }) {
  const importJson = useMcpServers((s) => s.importJson);
  const [json, setJson] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [result, setResult] = useState<McpImportResult | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    if (!json.trim()) {
      setError('Paste the JSON first: {"mcpServers": {…}}.');
      return;
    }
    setSaving(true);
    onSavingChange(true);
    setError(null);
    try {
      setResult(await importJson(json));
    } catch (err) {
      setError(describeError(err));
    } finally {
      setSaving(false);
      onSavingChange(false);
    }
  }

  if (result) {
    return (
      <div className="dialog-body">
        <ImportOutcome result={result} />
        <footer className="dialog-footer">
          <Button variant="primary" onClick={onClose} autoFocus>
            Done
          </Button>
        </footer>
      </div>
    );
  }
  return (
    <form className="dialog-body" onSubmit={submit} noValidate aria-busy={saving || undefined}>
      <Field label="Claude Desktop JSON" error={error}>
        {(control) => (
          <textarea
            {...control}
            className="input input-mono mcp-textarea mcp-import-text"
            rows={10}
            value={json}
            spellCheck={false}
            placeholder={
              '{\n  "mcpServers": {\n    "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/notes"]}\n  }\n}'
            }
            onChange={(e) => {
              setJson(e.target.value);
              setError(null);
            }}
          />
        )}
      </Field>
      <DialogFormFooter
        error={null}
        saving={saving}
        onCancel={onClose}
        submitLabel="Import"
        busyLabel="Importing…"
      />
    </form>
  );
}

function ImportOutcome({ result }: { result: McpImportResult }) {
  return (
    <div className="mcp-import-result" role="status">
      <h3 className="mcp-subheading">
        {result.added.length === 0
          ? "No server added"
          : result.added.length === 1
            ? "Added 1 server"
            : `Added ${result.added.length} servers`}
      </h3>
      {result.added.length ? (
        <ul aria-label="Added" className="mcp-import-list">
          {result.added.map((id) => (
            <li key={id}>
              <code className="code-chip">{id}</code>
            </li>
          ))}
        </ul>
      ) : null}
      {result.skipped.length ? (
        <>
          <h3 className="mcp-subheading">Skipped</h3>
          <ul aria-label="Skipped" className="mcp-import-list">
            {result.skipped.map((skip) => (
              <li key={skip.id} data-skipped={skip.id}>
                <code className="code-chip">{skip.id}</code> — {skip.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
