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
  const blurbIds = useId();
  return (
    <div className="preset-picker" role="group" aria-labelledby={labelId}>
      <p id={labelId} className="section-label">
        Choose a provider
      </p>
      {/* Once a preset is picked the grid shrinks to chips, leaving room for the form. */}
      <div className={selected ? "preset-grid is-compact" : "preset-grid"}>
        {presetChoices.map((choice, index) => {
          const name = choiceName(choice);
          const pressed = selected !== null && choiceName(selected) === name;
          return (
            // The card is the button's hit area (its ::after covers the card); the blurb sits beside
            // the button, as its description, so the button's visible text is exactly its name.
            <div key={name} className="preset-card" data-pressed={pressed || undefined}>
              <span className="preset-card-icon" aria-hidden="true">
                {isLocal(choice) ? <Server size={14} /> : <Globe size={14} />}
              </span>
              <span className="preset-card-text">
                <button
                  type="button"
                  className="preset-card-name"
                  aria-pressed={pressed}
                  aria-describedby={`${blurbIds}-${index}`}
                  onClick={() => onPick(choice)}
                >
                  {name}
                </button>
                <span id={`${blurbIds}-${index}`} className="preset-card-blurb">
                  {choiceBlurb(choice)}
                </span>
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
