/** One field of an elicitation form, by its kind: text, number, checkbox, one choice or several. */
import { Field } from "../../ui/field.js";
import type { ElicitationField } from "./elicitation-form-model.js";

export function ElicitationFieldControl({
  field,
  value,
  onChange,
}: {
  field: ElicitationField;
  value: string | boolean | string[];
  onChange(value: string | boolean | string[]): void;
}) {
  const label = field.required ? `${field.label} (required)` : field.label;
  if (field.kind === "boolean") {
    return (
      <label className="mcp-checkbox">
        <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
        {label}
        {field.description ? <span className="field-hint"> — {field.description}</span> : null}
      </label>
    );
  }
  if (field.kind === "multi") {
    const picked = Array.isArray(value) ? value : [];
    return (
      <fieldset className="mcp-multi">
        <legend className="field-label">{label}</legend>
        {field.description ? <p className="field-hint">{field.description}</p> : null}
        {field.options.map((option) => (
          <label key={option.value} className="mcp-checkbox">
            <input
              type="checkbox"
              checked={picked.includes(option.value)}
              onChange={(e) =>
                onChange(
                  e.target.checked ? [...picked, option.value] : picked.filter((v) => v !== option.value),
                )
              }
            />
            {option.label}
          </label>
        ))}
      </fieldset>
    );
  }
  const text = typeof value === "string" ? value : "";
  return (
    <Field label={label} hint={field.description || undefined}>
      {(control) =>
        field.kind === "choice" ? (
          <select {...control} className="input" value={text} onChange={(e) => onChange(e.target.value)}>
            {field.required && text !== "" ? null : <option value="">—</option>}
            {field.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...control}
            className="input"
            type={field.kind === "number" ? "text" : field.inputType}
            inputMode={field.kind === "number" ? (field.integer ? "numeric" : "decimal") : undefined}
            value={text}
            onChange={(e) => onChange(e.target.value)}
          />
        )
      }
    </Field>
  );
}
