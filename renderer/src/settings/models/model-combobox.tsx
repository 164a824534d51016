/**
 * A text input with a filtered list of a provider's models (ARIA combobox pattern). Typing any id
 * is allowed: a provider's list can be incomplete, or fail to load.
 */
import { useId, useState, type KeyboardEvent } from "react";
import type { FieldControlProps } from "../../ui/field.js";

/** Beyond this many matches the list asks for more typing instead of rendering them all. */
const maxShown = 300;

export function filterModels(models: readonly string[], text: string): string[] {
  const query = text.trim().toLowerCase();
  // An exact pick shows the whole list again, so reopening lets the user browse.
  if (!query || models.includes(text.trim())) return [...models];
  return models.filter((model) => model.toLowerCase().includes(query));
}

export function ModelCombobox({
  control,
  value,
  onChange,
  models,
  disabled = false,
}: {
  control: FieldControlProps;
  value: string;
  onChange(value: string): void;
  /** null while the list is loading or unavailable; the input still works. */
  models: readonly string[] | null;
  disabled?: boolean;
}) {
  const listboxId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // The list is filtered by what the person typed, not by the model the field started with: opening
  // it shows every model of the provider, so the others are there to pick.
  const [typed, setTyped] = useState(false);
  const matches = models ? filterModels(models, typed ? value : "") : [];
  const shown = matches.slice(0, maxShown);
  const expanded = open && models !== null && models.length > 0;
  const optionId = (index: number) => `${listboxId}-option-${index}`;

  const pick = (model: string) => {
    onChange(model);
    setTyped(false);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!open) setOpen(true);
      if (shown.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => (current + step + shown.length) % shown.length);
    } else if (event.key === "Enter" && expanded && active >= 0 && shown[active] !== undefined) {
      event.preventDefault();
      pick(shown[active]);
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <div className="combobox">
      <input
        {...control}
        className="input input-mono"
        type="text"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listboxId}
        aria-autocomplete="list"
        aria-activedescendant={
          expanded && active >= 0 && active < shown.length ? optionId(active) : undefined
        }
        value={value}
        disabled={disabled}
        placeholder="Pick from the list or type a model id"
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => {
          onChange(event.target.value);
          setTyped(true);
          setOpen(true);
          setActive(-1);
        }}
        onClick={() => setOpen(true)}
        onKeyDown={onKeyDown}
        onBlur={(event) => {
          // In a dialog the list sits in the form (combobox.css): closing it as a button of that
          // dialog is pressed would move the button from under the pointer before the click lands.
          const dialog = event.currentTarget.closest(".dialog");
          const next = event.relatedTarget;
          if (dialog && next instanceof HTMLButtonElement && dialog.contains(next)) return;
          setOpen(false);
          setActive(-1);
        }}
      />
      {expanded ? (
        <div className="combobox-popover">
          {shown.length > 0 ? (
            <ul id={listboxId} role="listbox" aria-label="Models" className="combobox-listbox">
              {shown.map((model, index) => (
                <li
                  key={model}
                  id={optionId(index)}
                  role="option"
                  aria-selected={model === value}
                  className={`combobox-option${index === active ? " is-active" : ""}`}
                  // Keep focus in the input so the click lands before blur closes the list.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => pick(model)}
                >
                  {model}
                </li>
              ))}
            </ul>
          ) : (
            <p className="combobox-empty">No listed model matches; “{value.trim()}” will be used as typed.</p>
          )}
          {matches.length > shown.length ? (
            <p className="combobox-more">
              {matches.length - shown.length} more — keep typing to narrow the list.
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
