/**
 * A server's secrets (`secret_env` or `secret_headers`): each a name and a password field. The
 * value inputs are uncontrolled on purpose (as the provider key's): a typed value never enters
 * React state or the DOM's `value` attribute; the form reads them once at save time. A saved
 * secret shows only its last 4 characters.
 */
import { Plus, Trash } from "lucide-react";
import { useId } from "react";
import { Button } from "../../ui/button.js";
import { IconButton } from "../../ui/icon-button.js";

export interface SecretRow {
  /** Stable key for React and the value input's ref. */
  key: string;
  name: string;
  /** A value is in the keychain (its last 4 characters in `keyHint`). */
  saved: boolean;
  keyHint: string | null;
  /** Saved, and the person asked to delete it on save. */
  removed: boolean;
}

export function SecretFields({
  kind,
  rows,
  onChange,
  inputs,
  error,
}: {
  kind: "env" | "header";
  rows: readonly SecretRow[];
  onChange(rows: SecretRow[]): void;
  /** The value inputs by row key, read at save time. */
  inputs: Map<string, HTMLInputElement>;
  error: string | null;
}) {
  const headingId = useId();
  const errorId = `${headingId}-error`;
  const noun = kind === "env" ? "secret variable" : "secret header";
  const update = (key: string, patch: Partial<SecretRow>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  return (
    <fieldset
      className="mcp-secrets"
      aria-labelledby={headingId}
      aria-describedby={error ? errorId : undefined}
    >
      <legend id={headingId} className="field-label">
        {kind === "env" ? "Secret environment variables" : "Secret headers"}
      </legend>
      <p className="field-hint">
        Stored in your system keychain; only their last 4 characters are ever shown.
      </p>
      {rows.length ? (
        <ul className="mcp-secret-rows">
          {rows.map((row, index) => (
            <li key={row.key} className="mcp-secret-row" data-secret={row.name || undefined}>
              {row.saved ? (
                <span className="mcp-secret-name code-chip">{row.name}</span>
              ) : (
                <input
                  className="input input-mono mcp-secret-name-input"
                  type="text"
                  aria-label={`Name of ${noun} ${index + 1}`}
                  placeholder={kind === "env" ? "e.g. GITHUB_TOKEN" : "e.g. Authorization"}
                  value={row.name}
                  autoComplete="off"
                  spellCheck={false}
                  onChange={(event) => update(row.key, { name: event.target.value })}
                />
              )}
              <input
                ref={(element) => {
                  if (element) inputs.set(row.key, element);
                  else inputs.delete(row.key);
                }}
                className="input input-mono"
                type="password"
                aria-label={row.name ? `Value of ${row.name}` : `Value of ${noun} ${index + 1}`}
                autoComplete="off"
                spellCheck={false}
                disabled={row.removed}
                placeholder={
                  row.removed
                    ? "Deleted when you save"
                    : row.saved && row.keyHint
                      ? `Saved, ends in ${row.keyHint} — type to replace`
                      : row.saved
                        ? "No value yet"
                        : "Value"
                }
              />
              {row.saved && row.keyHint && !row.removed ? (
                <span className="mcp-secret-hint">••••{row.keyHint}</span>
              ) : null}
              {row.saved ? (
                <Button size="sm" variant="ghost" onClick={() => update(row.key, { removed: !row.removed })}>
                  {row.removed ? "Keep" : "Delete"}
                </Button>
              ) : (
                <IconButton
                  label={`Remove ${row.name || `${noun} ${index + 1}`}`}
                  icon={<Trash size={14} aria-hidden="true" />}
                  onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
                />
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <Button
        size="sm"
        variant="ghost"
        icon={<Plus size={14} aria-hidden="true" />}
        onClick={() =>
          onChange([
            ...rows,
            {
              key: `new-${Date.now()}-${rows.length}`,
              name: "",
              saved: false,
              keyHint: null,
              removed: false,
            },
          ])
        }
      >
        Add {noun}
      </Button>
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
