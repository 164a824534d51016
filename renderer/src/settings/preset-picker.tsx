/** The first step of Add provider: one button per preset, named exactly after it. */
import { Globe, Server } from "lucide-react";
import { useId } from "react";
import { choiceBlurb, choiceName, presetChoices, type PresetChoice } from "./provider-form-model.js";

const isLocal = (choice: PresetChoice): boolean => choice.kind === "preset" && !choice.preset.needsKey;

export function PresetPicker({
  selected,
  onPick,
}: {
  selected: PresetChoice | null;
  onPick(choice: PresetChoice): void;
}) {
  const labelId = useId();
  return (
    <div className="preset-picker" role="group" aria-labelledby={labelId}>
      <p id={labelId} className="section-label">
        Choose a provider
      </p>
      {/* Once a preset is picked the grid shrinks to chips, leaving room for the form. */}
      <div className={selected ? "preset-grid is-compact" : "preset-grid"}>
        {presetChoices.map((choice) => {
          const name = choiceName(choice);
          const pressed = selected !== null && choiceName(selected) === name;
          return (
            <button
              key={name}
              type="button"
              className="preset-card"
              aria-pressed={pressed}
              // The blurb is decoration; the button's name is exactly the preset's.
              aria-label={name}
              title={choiceBlurb(choice)}
              onClick={() => onPick(choice)}
            >
              <span className="preset-card-icon" aria-hidden="true">
                {isLocal(choice) ? <Server size={14} /> : <Globe size={14} />}
              </span>
              <span className="preset-card-text">
                <span className="preset-card-name">{name}</span>
                <span className="preset-card-blurb">{choiceBlurb(choice)}</span>
              </span>
            </button>
          );
        })}
      </div>
    </div>
  );
}
